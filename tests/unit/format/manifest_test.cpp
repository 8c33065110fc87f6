// manifest.txt under the master and standby rules: every row of snapshot-format.md §2.8's table,
// plus the warnings for accepted but non-canonical content.
#include "format/manifest.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::format {
namespace {

constexpr const char* k_id = "20260822_051200_123";

struct ManifestRow {
  const char* name;
  std::string text;
  bool accepted;       // same verdict under both rules (the table says so for every row)
  const char* reason;  // substring of the rejection message
};

class ManifestTable : public ::testing::TestWithParam<ManifestRow> {};

TEST_P(ManifestTable, MasterRule) {
  const auto& row = GetParam();
  auto r = check_manifest(row.text, ManifestRule::master, k_id);
  ASSERT_EQ(r.ok(), row.accepted) << (r.ok() ? "accepted" : r.status().message());
  if (!row.accepted) {
    EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
    EXPECT_NE(r.status().message().find(row.reason), std::string::npos) << r.status().message();
  }
}

TEST_P(ManifestTable, StandbyRule) {
  const auto& row = GetParam();
  auto r = check_manifest(row.text, ManifestRule::standby, k_id);
  ASSERT_EQ(r.ok(), row.accepted) << (r.ok() ? "accepted" : r.status().message());
  if (!row.accepted) { EXPECT_EQ(r.status().code(), util::StatusCode::corruption); }
}

INSTANTIATE_TEST_SUITE_P(
    SpecTable, ManifestTable,
    ::testing::Values(
        ManifestRow{"canonical", "messagepack|1.0.0|20260822_051200_123", true, ""},
        ManifestRow{"other_id", "messagepack|1.0.0|anything-else", true, ""},
        ManifestRow{"empty_id", "messagepack|1.0.0|", true, ""},
        ManifestRow{"extra_parts", "messagepack|1.0.0|x|y", true, ""},
        ManifestRow{"two_parts", "messagepack|1.0.0", false, "at least 3"},
        ManifestRow{"newline_in_version", std::string("messagepack|1.0.0\n|x"), false, "version is '1.0.0\n'"},
        ManifestRow{"leading_space", " messagepack|1.0.0|x", false, "serializer type is ' messagepack'"},
        ManifestRow{"wrong_version", "messagepack|1.0.1|x", false, "serializer version is '1.0.1'"},
        ManifestRow{"empty", "", false, "1 '|'-separated parts"},
        ManifestRow{"wrong_protocol", "msgpack|1.0.0|x", false, "serializer type is 'msgpack'"},
        ManifestRow{"uppercase_protocol", "MessagePack|1.0.0|x", false, "expected 'messagepack'"},
        ManifestRow{"trailing_newline", std::string("messagepack|1.0.0|20260822_051200_123\n"), true, ""}),
    [](const ::testing::TestParamInfo<ManifestRow>& p) { return std::string(p.param.name); });

TEST(Manifest, CanonicalHasNoWarnings) {
  auto r = check_manifest("messagepack|1.0.0|20260822_051200_123", ManifestRule::master, k_id);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->warnings.empty());
}

TEST(Manifest, IdMismatchIsAWarningNotARejection) {
  auto r = check_manifest("messagepack|1.0.0|20260822_051200_999", ManifestRule::master, k_id);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "manifest.txt names snapshot '20260822_051200_999', the directory is '20260822_051200_123'");
}

TEST(Manifest, ExtraPartsWarn) {
  auto r = check_manifest("messagepack|1.0.0|20260822_051200_123|y", ManifestRule::master, k_id);
  ASSERT_TRUE(r.ok());
  // Part 2 alone is compared with the id, so only the extra-parts warning appears.
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0], "manifest.txt has extra '|'-separated parts after the snapshot id");
}

TEST(Manifest, TrailingNewlineWarnsAboutWhitespaceAndId) {
  auto r = check_manifest("messagepack|1.0.0|20260822_051200_123\n", ManifestRule::master, k_id);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_NE(r->warnings[0].find("names snapshot"), std::string::npos);
  EXPECT_EQ(r->warnings[1], "manifest.txt contains whitespace");
}

TEST(Manifest, StandbyRejectionNamesTheMissingSeparator) {
  auto r = check_manifest("messagepack|1.0.0", ManifestRule::standby, k_id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "manifest.txt has fewer than two '|', the standby needs two");
}

}  // namespace
}  // namespace moonquota::format
