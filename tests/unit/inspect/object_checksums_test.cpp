#include "inspect/object_checksums.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace moonquota::inspect {
namespace {

// An object store that only has details (what the S3 backend learnt during a scan).
class DetailsStore final : public source::ObjectStore {
 public:
  std::map<std::string, source::ObjectDetails> details_by_key;

  util::Result<std::string> get(const std::string&, std::uint64_t) override { return util::Status::internal("unused"); }
  util::Result<std::unique_ptr<util::ByteSource>> open(const std::string&) override {
    return util::Status::internal("unused");
  }
  util::Status get_range(const std::string&, std::uint64_t, std::uint64_t, util::ByteBuffer&) override {
    return util::Status::internal("unused");
  }
  util::Result<std::uint64_t> size(const std::string&) override { return util::Status::internal("unused"); }
  util::Result<std::vector<std::string>> list(const std::string&) override { return util::Status::internal("unused"); }
  std::optional<source::ObjectDetails> details(const std::string& key) override {
    auto it = details_by_key.find(key);
    if (it == details_by_key.end()) return std::nullopt;
    return it->second;
  }
};

source::ObjectDetails object(std::optional<std::string> server, std::optional<std::string> read) {
  source::ObjectDetails d;
  d.size = 1;
  d.etag = "\"e\"";
  d.server_crc32c = std::move(server);
  d.read_crc32c = std::move(read);
  return d;
}

TEST(ObjectChecksums, ALocalStoreHasNoDetailsAndNothingIsReported) {
  DetailsStore store;
  FindingCollector out;
  EXPECT_EQ(check_object_checksums(store, {"/store/a", "/store/b"}, out), std::nullopt);
  EXPECT_TRUE(out.counts().empty());
}

TEST(ObjectChecksums, MatchesAreCountedAndAMismatchIsAnErrorNamingTheKey) {
  DetailsStore store;
  store.details_by_key["s3://b/s/segments"] = object("4waSgw==", "4waSgw==");
  store.details_by_key["s3://b/s/manifest.txt"] = object("AAAAAA==", "yZRlqg==");
  store.details_by_key["s3://b/s/metadata"] = object("wdBDMA==", std::nullopt);  // read in ranges only
  store.details_by_key["s3://b/s/descriptor.txt"] = object(std::nullopt, "wdBDMA==");
  FindingCollector out;
  auto check = check_object_checksums(
      store, {"s3://b/s/segments", "s3://b/s/manifest.txt", "s3://b/s/metadata", "s3://b/s/descriptor.txt"}, out);
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->checked, 2u);
  EXPECT_EQ(check->mismatched, 1u);
  EXPECT_EQ(check->not_read_whole, 1u);
  EXPECT_EQ(check->without_server_checksum, 1u);
  EXPECT_FALSE(check->server_sent_none());
  const auto listed = out.sorted();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].severity, model::Severity::error);
  EXPECT_EQ(listed[0].rule, "object-crc32c");
  EXPECT_EQ(listed[0].location, "s3://b/s/manifest.txt");
  EXPECT_EQ(listed[0].message,
            "CRC32C mismatch: the server's x-amz-checksum-crc32c is AAAAAA==, the bytes read give "
            "yZRlqg==");
  EXPECT_EQ(describe_checksums(*check),
            "2 objects CRC32C-checked against the server, 1 mismatch; 1 without a server checksum; 1 read in ranges "
            "only, not checked");
}

TEST(ObjectChecksums, TheServerSentNone) {
  DetailsStore store;
  store.details_by_key["s3://b/s/segments"] = object(std::nullopt, "4waSgw==");
  store.details_by_key["s3://b/s/metadata"] = object(std::nullopt, std::nullopt);
  FindingCollector out;
  auto check = check_object_checksums(store, {"s3://b/s/segments", "s3://b/s/metadata", "s3://b/s/absent"}, out);
  ASSERT_TRUE(check.has_value());
  EXPECT_TRUE(check->server_sent_none());
  EXPECT_EQ(describe_checksums(*check), "the server sent no x-amz-checksum-crc32c: objects not checked");
  EXPECT_TRUE(out.counts().empty());
  ChecksumCheck one;
  one.checked = 1;
  EXPECT_EQ(describe_checksums(one), "1 object CRC32C-checked against the server");
}

}  // namespace
}  // namespace moonquota::inspect
