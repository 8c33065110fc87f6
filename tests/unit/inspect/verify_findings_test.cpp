// FindingCollector: complete counts, a per-rule cap, a deterministic order.
#include "inspect/verify_findings.hpp"

#include <gtest/gtest.h>

namespace moonquota::inspect {
namespace {

VerifyFinding object_finding(const char* rule, std::uint32_t shard, std::uint64_t entry) {
  VerifyFinding f;
  f.rule = rule;
  f.shard = shard;
  f.entry = entry;
  f.message = "m";
  return f;
}

TEST(FindingCollector, CapsEachRuleButCountsAll) {
  FindingCollector c(2);
  for (std::uint32_t s = 10; s > 0; --s) c.add(object_finding("shard-index", s, 0));
  c.add(object_finding("buffer-size", 5, 1));
  const auto listed = c.sorted();
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(*listed[0].shard, 1u);  // the smallest locations are kept
  EXPECT_EQ(*listed[1].shard, 2u);
  EXPECT_EQ(listed[2].rule, "buffer-size");
  EXPECT_EQ(c.counts().at("shard-index").count, 10u);
  EXPECT_EQ(c.count(model::Severity::error), 11u);
}

TEST(FindingCollector, FileLevelFindingsComeFirstAndShardFindingsSortByShard) {
  FindingCollector c;
  c.add(object_finding("x", 3, 0));
  c.add_model_finding({.severity = model::Severity::warning, .location = "shard 2", .message = "w", .shard = 2},
                      "decoder-warning");
  c.add_model_finding({model::Severity::info, "segments", "i"}, "decoder-info");
  const auto listed = c.sorted();
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_FALSE(listed[0].shard.has_value());
  EXPECT_EQ(listed[0].location, "segments");
  EXPECT_EQ(*listed[1].shard, 2u);
  EXPECT_EQ(*listed[2].shard, 3u);
}

// Model findings are placed and named by their fields; their text is never parsed.
TEST(FindingCollector, ModelFindingsAreGroupedByTheirFieldsNotTheirText) {
  FindingCollector c;
  // Location and message both say "shard 7"; the field says shard 2.
  c.add_model_finding({.severity = model::Severity::error,
                       .location = "shard 7",
                       .message = "duplicate entry for tenant 't' key 'shard 7'",
                       .rule = "duplicate-key",
                       .shard = 2},
                      "decoder-error");
  // Text that looks like a shard location, but no shard field: stays a file-level location.
  c.add_model_finding({model::Severity::warning, "shard 5", "object skipped (NOF, legacy, not sorted)"},
                      "decoder-warning");
  c.add(object_finding("x", 3, 0));
  const auto listed = c.sorted();
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_FALSE(listed[0].shard.has_value());
  EXPECT_EQ(listed[0].location, "shard 5");
  EXPECT_EQ(listed[0].rule, "decoder-warning");  // the fallback: the message's words name no rule
  ASSERT_TRUE(listed[1].shard.has_value());
  EXPECT_EQ(*listed[1].shard, 2u);
  EXPECT_EQ(listed[1].rule, "duplicate-key");
  EXPECT_EQ(listed[1].location, "");
  EXPECT_EQ(*listed[2].shard, 3u);
  EXPECT_EQ(c.counts().at("duplicate-key").count, 1u);
  EXPECT_EQ(c.counts().count("decoder-error"), 0u);
}

// An entry-level model finding keeps its location text (as "shard N entry I" always printed).
TEST(FindingCollector, EntryLevelModelFindingsKeepTheirLocation) {
  FindingCollector c;
  c.add_model_finding({.severity = model::Severity::info,
                       .location = "shard 4 entry 9",
                       .message = "legacy 2-element entry",
                       .rule = "legacy-entry",
                       .shard = 4,
                       .entry = 9},
                      "decoder-info");
  const auto listed = c.sorted();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_FALSE(listed[0].shard.has_value());
  EXPECT_EQ(listed[0].location, "shard 4 entry 9");
  EXPECT_EQ(listed[0].rule, "legacy-entry");
}

TEST(FindingCollector, MergeKeepsTheSameFindingsAsOneCollector) {
  FindingCollector one(3);
  FindingCollector a(3);
  FindingCollector b(3);
  for (std::uint32_t s = 0; s < 20; ++s) {
    one.add(object_finding("r", s, s));
    (s % 2 ? a : b).add(object_finding("r", s, s));
  }
  a.merge(std::move(b));
  const auto x = one.sorted();
  const auto y = a.sorted();
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].shard, y[i].shard);
  EXPECT_EQ(a.counts().at("r").count, 20u);
}

}  // namespace
}  // namespace moonquota::inspect
