// The OpLog key layout over hostile keys and cluster ids: the root's character and length rule,
// 20-digit numbers (no sign, no overflow), and the class of every key, including every prefix of
// a valid batch key.
#include "source/oplog_keys.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace moonquota::source {
namespace {

TEST(OpLogKeys, RootAcceptsTheClusterIdAlphabet) {
  EXPECT_EQ(oplog_root("mooncake_cluster"), "/oplog/mooncake_cluster/");
  EXPECT_EQ(oplog_root("A-z.0_9"), "/oplog/A-z.0_9/");
  EXPECT_EQ(oplog_root("c//"), "/oplog/c/") << "trailing slashes are stripped";
  EXPECT_EQ(oplog_root(std::string(128, 'x')), "/oplog/" + std::string(128, 'x') + "/");
}

TEST(OpLogKeys, RootRejectsEverythingElse) {
  EXPECT_EQ(oplog_root(""), std::nullopt);
  EXPECT_EQ(oplog_root("///"), std::nullopt);
  EXPECT_EQ(oplog_root(std::string(129, 'x')), std::nullopt);
  EXPECT_EQ(oplog_root(std::string(128, 'x') + "/"), "/oplog/" + std::string(128, 'x') + "/");
  // The neighbours of every accepted range, a slash inside, space, NUL and a UTF-8 byte.
  const std::vector<std::string> bad_ids = {
      "a/b", "a b", "a@", "a[", "a`", "a{", "a:", "a,", "a+", std::string("a\0b", 3), "caf\xc3\xa9"};
  for (const std::string& bad : bad_ids) { EXPECT_EQ(oplog_root(bad), std::nullopt) << bad; }
}

TEST(OpLogKeys, D20PadsToTwentyDigitsAndParsesBack) {
  EXPECT_EQ(d20(0), "00000000000000000000");
  EXPECT_EQ(d20(7), "00000000000000000007");
  EXPECT_EQ(d20(UINT64_MAX), "18446744073709551615");
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{1} << 40, UINT64_MAX}) {
    EXPECT_EQ(parse_d20(d20(n)), n);
  }
}

TEST(OpLogKeys, ParseD20RejectsAnythingButTwentyDigitsThatFit) {
  EXPECT_EQ(parse_d20("0000000000000000007"), std::nullopt);    // 19
  EXPECT_EQ(parse_d20("000000000000000000007"), std::nullopt);  // 21
  EXPECT_EQ(parse_d20(""), std::nullopt);
  EXPECT_EQ(parse_d20("+0000000000000000007"), std::nullopt);
  EXPECT_EQ(parse_d20("-0000000000000000007"), std::nullopt);
  EXPECT_EQ(parse_d20(" 0000000000000000007"), std::nullopt);
  EXPECT_EQ(parse_d20("0000000000000000000a"), std::nullopt);
  EXPECT_EQ(parse_d20("18446744073709551616"), std::nullopt);  // UINT64_MAX + 1
  EXPECT_EQ(parse_d20("99999999999999999999"), std::nullopt);
}

TEST(OpLogKeys, ClassifiesEveryKind) {
  struct Case {
    const char* suffix;
    OpLogKeyClass kind;
    std::uint64_t number;
  };
  const Case cases[] = {
      {"durable_prefix", OpLogKeyClass::durable_prefix, 0},
      {"producer_view", OpLogKeyClass::producer_view, 0},
      {"latest", OpLogKeyClass::legacy_latest, 0},
      {"batches/00000000000000000042", OpLogKeyClass::batch, 42},
      {"batches/18446744073709551615", OpLogKeyClass::batch, UINT64_MAX},
      {"batches/18446744073709551616", OpLogKeyClass::malformed_batch, 0},
      {"batches/42", OpLogKeyClass::malformed_batch, 0},
      {"batches/00000000000000000042/x", OpLogKeyClass::malformed_batch, 0},
      {"batches/", OpLogKeyClass::malformed_batch, 0},
      {"snapshot/", OpLogKeyClass::legacy_snapshot, 0},
      {"snapshot/00000000000000000001/meta", OpLogKeyClass::legacy_snapshot, 0},
      {"cleanup/anything", OpLogKeyClass::cleanup, 0},
      {"00000000000000000009", OpLogKeyClass::legacy_entry, 9},
      {"0000000000000000000x", OpLogKeyClass::malformed_legacy, 0},
      {"99999999999999999999", OpLogKeyClass::malformed_legacy, 0},
      {"0000000000000000/009", OpLogKeyClass::unknown, 0},
      {"0000000000000000009", OpLogKeyClass::unknown, 0},
      {"snapshot", OpLogKeyClass::unknown, 0},
      {"cleanup", OpLogKeyClass::unknown, 0},
      {"Durable_prefix", OpLogKeyClass::unknown, 0},
      {"durable_prefix/", OpLogKeyClass::unknown, 0},
      {"", OpLogKeyClass::unknown, 0},
  };
  for (const Case& c : cases) {
    const ClassifiedKey k = classify_oplog_key(c.suffix);
    EXPECT_EQ(k.kind, c.kind) << c.suffix << ": " << oplog_key_class_name(k.kind);
    EXPECT_EQ(k.number, c.number) << c.suffix;
  }
}

TEST(OpLogKeys, EveryPrefixOfABatchKeyIsNotABatch) {
  const std::string key = "batches/" + d20(42);
  for (std::size_t cut = 0; cut < key.size(); ++cut) {
    const ClassifiedKey k = classify_oplog_key(std::string_view(key).substr(0, cut));
    const OpLogKeyClass expected = cut < 8 ? OpLogKeyClass::unknown : OpLogKeyClass::malformed_batch;
    EXPECT_EQ(k.kind, expected) << cut;
    EXPECT_EQ(k.number, 0u) << cut;
  }
  EXPECT_EQ(classify_oplog_key(key).kind, OpLogKeyClass::batch);
}

TEST(OpLogKeys, NamesEveryClass) {
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::durable_prefix), "durable_prefix");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::batch), "batch");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::producer_view), "producer_view");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::legacy_latest), "legacy latest");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::legacy_entry), "legacy entry");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::legacy_snapshot), "legacy snapshot");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::cleanup), "cleanup");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::malformed_batch), "malformed batch key");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::malformed_legacy), "malformed legacy key");
  EXPECT_STREQ(oplog_key_class_name(OpLogKeyClass::unknown), "unknown");
}

}  // namespace
}  // namespace moonquota::source
