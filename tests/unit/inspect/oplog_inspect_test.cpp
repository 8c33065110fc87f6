// oplog-inspect's audit reads findings by their fields: the leniency rule decides `ok`, whatever a
// message says; entry findings carry the entry's index in its batch.
#include "inspect/oplog_inspect.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "forge/oplog_forge.hpp"
#include "format/oplog_batch.hpp"
#include "report/inspect/oplog_inspect_report.hpp"
#include "source/oplog_keys.hpp"
#include "source/oplog_source.hpp"
#include "support/tree_paths.hpp"

namespace moonquota::inspect {
namespace {

const std::string k_root = "/oplog/t/";
const std::string k_canonical_prefix = "{\"batch_id\":1,\"last_seq\":2,\"schema_version\":1}";

source::OpLogKeySet key_set(const std::string& prefix_text) {
  source::OpLogKeySet set;
  set.origin = "test";
  set.root = k_root;
  std::vector<format::OpLogEntry> entries(2);
  entries[0].op_type = format::op_type::remove;
  entries[0].tenant_id = "default";
  entries[0].key = "a";
  entries[1].op_type = format::op_type::put_revoke;
  entries[1].tenant_id = "default";
  entries[1].key = "b";
  set.kvs.push_back({k_root + "batches/" + source::d20(1), format::encode_batch_record(1, 1, entries)});
  set.kvs.push_back({k_root + "durable_prefix", prefix_text});
  std::sort(set.kvs.begin(), set.kvs.end(), [](auto& a, auto& b) { return a.key < b.key; });
  return set;
}

const model::Finding* find_rule(const OpLogAudit& audit, const std::string& rule) {
  for (const auto& f : audit.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

TEST(OpLogAudit, CanonicalLogIsOk) {
  const OpLogAudit audit = audit_oplog(key_set(k_canonical_prefix));
  EXPECT_TRUE(audit.ok);
  EXPECT_EQ(find_rule(audit, format::k_rule_jsoncpp_leniency), nullptr);
}

TEST(OpLogAudit, LeniencyFindingCarriesItsRuleAndFailsTheAudit) {
  const OpLogAudit audit = audit_oplog(key_set("/* comment */" + k_canonical_prefix));
  const model::Finding* f = find_rule(audit, format::k_rule_jsoncpp_leniency);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location, "durable_prefix");
  EXPECT_EQ(f->severity, model::Severity::warning);
  EXPECT_FALSE(audit.ok);
}

TEST(OpLogAudit, MessageThatReadsLikeLeniencyWithoutTheRuleDoesNotFailTheAudit) {
  source::OpLogKeySet keys = key_set(k_canonical_prefix);
  keys.findings.push_back(
      {model::Severity::warning, "export line 3", "accepted only through jsoncpp leniency (a message, not the rule)"});
  const OpLogAudit audit = audit_oplog(keys);
  EXPECT_TRUE(audit.ok);
}

TEST(OpLogAudit, EntryFindingsCarryTheEntryIndexInTheirBatch) {
  const OpLogAudit audit = audit_oplog(key_set(k_canonical_prefix));
  const model::Finding* revoke = nullptr;
  for (const auto& f : audit.findings) {
    if (f.message.rfind("PUT_REVOKE entry", 0) == 0) revoke = &f;
  }
  ASSERT_NE(revoke, nullptr);
  EXPECT_EQ(revoke->location, k_root + "batches/" + source::d20(1) + " sequence 2");
  ASSERT_TRUE(revoke->entry.has_value());
  EXPECT_EQ(*revoke->entry, 1u);
  EXPECT_FALSE(revoke->shard.has_value());
}

// Issue 11 item 22: "1 entries".
TEST(OpLogText, CountsOfOneReadInTheSingular) {
  OpLogSummary summary;
  summary.first_seq = 1;
  summary.last_seq = 1;
  summary.batches = 1;
  summary.entries = 1;
  std::ostringstream text;
  report::render_oplog_summary_text(summary, text);
  EXPECT_NE(text.str().find("sequences: 1..1 in 1 batch (1 entry, 0 undecodable batches)\n"), std::string::npos)
      << text.str();
  OpLogAudit audit;
  audit.batch_count = 1;
  audit.entry_count = 1;
  audit.orphan_batches = {7};
  std::ostringstream audit_text;
  report::render_oplog_audit_text(audit, audit_text);
  EXPECT_NE(audit_text.str().find("batches:   1 (1 entry), 1 orphan, legacy_max_seq"), std::string::npos)
      << audit_text.str();
}

// Issue 11 item 3: zero keys under the chosen cluster id while other clusters' keys are present
// is a wrong --cluster-id, not an empty OpLog: not ok, naming the ids seen.
TEST(OpLogAudit, NoKeyUnderTheClusterWhileOtherClustersHoldKeysIsNotOk) {
  auto keys = source::read_oplog_export_file(test::source_path("testdata/oplog/deep-batch.jsonl"), "mooncake_cluster");
  ASSERT_TRUE(keys.ok()) << keys.status().message();
  EXPECT_TRUE(keys->kvs.empty());
  EXPECT_EQ(keys->other_clusters, std::vector<std::string>{"prod-a"});
  const OpLogAudit audit = audit_oplog(*keys);
  EXPECT_FALSE(audit.ok);
  EXPECT_EQ(audit.other_clusters, std::vector<std::string>{"prod-a"});
  const bool named = std::any_of(audit.findings.begin(), audit.findings.end(), [](const model::Finding& f) {
    return f.severity == model::Severity::error && f.message.find("cluster id(s) prod-a") != std::string::npos;
  });
  EXPECT_TRUE(named);
  auto right = source::read_oplog_export_file(test::source_path("testdata/oplog/worked-batch.jsonl"), "prod-a");
  ASSERT_TRUE(right.ok());
  EXPECT_TRUE(right->other_clusters.empty());
}

TEST(OpLogAudit, EmptyOpLogOfAFreshClusterIsOk) {
  source::OpLogKeySet keys;
  keys.root = k_root;
  EXPECT_TRUE(audit_oplog(keys).ok);
}

// Issue 11 item 8: payload forms are counted from the decoded entries (what dump shows), not from
// a replay that may fail; a failed replay leaves the promotion unchecked.
TEST(OpLogSummary, PayloadFormsComeFromTheEntriesAndAFailedReplayIsNotValidated) {
  auto keys = source::read_oplog_export_file(test::source_path("snapshots/promote-worked/oplog.jsonl"), "prod-a");
  ASSERT_TRUE(keys.ok()) << keys.status().message();
  std::uint64_t compact = 0, literal = 0;
  ASSERT_TRUE(dump_oplog(*keys, {}, [&](const DumpedEntry& e) {
                if (e.form) ++(*e.form == format::PayloadForm::compact ? compact : literal);
              }).ok());
  EXPECT_EQ(compact, 2u);
  EXPECT_EQ(literal, 1u);
  const OpLogSummary summary = summarize_oplog(*keys).value();
  EXPECT_EQ(summary.compact_payloads, compact);
  EXPECT_EQ(summary.literal_payloads, literal);
  EXPECT_FALSE(summary.replay_error.empty());  // the log starts at sequence 42: it needs its snapshot
  EXPECT_FALSE(summary.promotion_checked);
  std::ostringstream text;
  report::render_oplog_summary_text(summary, text);
  EXPECT_NE(text.str().find("payloads:  2 compact, 1 type-literal\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("promotion: not checked (the replay failed)\n"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("validation ok"), std::string::npos) << text.str();
  EXPECT_TRUE(report::oplog_summary_json(summary)["replay"]["promotion_validation"].is_null());
}

TEST(OpLogSummary, ReplayFromSequenceOneIsValidated) {
  forge::SyntheticOpLogOptions options;
  options.cluster_id = "t";
  options.entries = 50;
  options.entries_per_batch = 10;
  const auto log = forge::synthesize_oplog(options);
  source::OpLogKeySet keys;
  keys.root = k_root;
  keys.kvs = log.kvs;
  const OpLogSummary summary = summarize_oplog(keys).value();
  EXPECT_TRUE(summary.replay_error.empty()) << summary.replay_error;
  EXPECT_TRUE(summary.promotion_checked);
  EXPECT_TRUE(summary.state.ok) << summary.state.failure;
  EXPECT_GT(summary.compact_payloads + summary.literal_payloads, 0u);
}

// oplog-inspect summary reads the export file without its values (each batch read again from its
// line): the same summary as with every value held; a line changed since is an error.
TEST(OpLogSummary, ValuesLeftInTheFileGiveTheSameSummary) {
  forge::SyntheticOpLogOptions options;
  options.cluster_id = "t";
  options.entries = 200;
  options.entries_per_batch = 16;
  const auto log = forge::synthesize_oplog(options);
  const std::string path = ::testing::TempDir() + "/summary-streamed.jsonl";
  ASSERT_TRUE(source::write_oplog_export_file(path, log.kvs).ok());
  auto held = source::read_oplog_export_file(path, "t");
  source::OpLogReadLimits limits;
  limits.keep_values = false;
  auto streamed = source::read_oplog_export_file(path, "t", limits);
  ASSERT_TRUE(held.ok() && streamed.ok());
  ASSERT_TRUE(streamed->export_lines != nullptr);
  auto a = summarize_oplog(*held);
  auto b = summarize_oplog(*streamed);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(b->promotion_checked);
  EXPECT_EQ(report::oplog_summary_json(*a).dump(), report::oplog_summary_json(*b).dump());
  std::ostringstream ta, tb;
  report::render_oplog_summary_text(*a, ta);
  report::render_oplog_summary_text(*b, tb);
  EXPECT_EQ(ta.str(), tb.str());
  // The file is rewritten in place under the key set: its lines no longer hold their keys.
  std::ofstream(path, std::ios::trunc) << std::string(200000, ' ') << "\n";
  auto changed = summarize_oplog(*streamed);
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.status().message().find("changed while it was being read"), std::string::npos)
      << changed.status().message();
  std::remove(path.c_str());
}

}  // namespace
}  // namespace moonquota::inspect
