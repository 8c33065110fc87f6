// snapshot-inspect run as a user runs it (the real binary):
//  - issue 11 item 4: every subcommand gives the master verdict quota-rebuild gives for the same
//    snapshot, or says that it did not check it, on every store under snapshots/ (each cluster id
//    found in it), in text and JSON;
//  - issue 11 item 14: every single-snapshot JSON document carries the same header block, and a
//    store path that is not UTF-8 keeps its bytes in `_hex`;
//  - issue 11 item 15: an error names the store, the snapshot id, the file and the byte offset.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::inspect {
namespace {

namespace fs = std::filesystem;

struct StoreCase {
  std::string store;  // relative to the source tree
  std::string cluster_id;
};

std::vector<StoreCase> every_store() {
  std::vector<StoreCase> out;
  const fs::path root = test::source_path("snapshots");
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it.depth() > 2) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_directory() || it->path().filename() != "store") continue;
    const fs::path clusters = it->path() / "mooncake_master_snapshot";
    if (!fs::is_directory(clusters)) continue;
    for (const auto& c : fs::directory_iterator(clusters)) {
      if (c.is_directory()) {
        out.push_back({fs::relative(it->path(), test::source_path("")).string(), c.path().filename().string()});
      }
    }
  }
  return out;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

TEST(MasterVerdictAgreement, EverySubcommandAgreesWithQuotaRebuildOrSaysItDidNotCheck) {
  const auto stores = every_store();
  ASSERT_GE(stores.size(), 10u);
  std::size_t rejecting = 0;
  for (const auto& s : stores) {
    const std::vector<std::string> where = {"--store",    test::source_path(s.store), "--cluster-id",
                                            s.cluster_id, "--restore-time",           "1787375520123"};
    std::vector<std::string> rebuild_args = where;
    rebuild_args.insert(rebuild_args.end(), {"--format", "json"});
    const auto rebuild = test::run_tool("quota-rebuild", rebuild_args);
    ASSERT_TRUE(rebuild.exit_code == 0 || rebuild.exit_code == 1) << s.store << ": " << rebuild.err;
    const auto report = nlohmann::json::parse(rebuild.out);
    const auto& candidates = report.at("candidates");
    ASSERT_FALSE(candidates.empty()) << s.store;
    // snapshot-inspect reads `latest`: the master's first candidate.
    const bool rejected = !candidates[0].at("restored").get<bool>();
    rejecting += rejected ? 1 : 0;
    for (const std::string command :
         {"summary", "tenants", "objects", "top", "segments", "tasks", "verify", "dump", "survival"}) {
      for (const std::string format : {"text", "json"}) {
        std::vector<std::string> args = {command};
        args.insert(args.end(), where.begin(), where.end());
        args.insert(args.end(), {"--format", format});
        const auto run = test::run_tool("snapshot-inspect", args);
        const std::string what = s.store + " (" + s.cluster_id + "): " + command + " --format " + format;
        ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << what << ": " << run.err;
        const std::string& out = run.out;
        const bool says_restores = contains(out, "master:      restores this snapshot") ||
                                   contains(out, "\"restores_inspected\":true") ||
                                   contains(out, "\"restores_inspected\": true");
        const bool says_rejects = contains(out, "master:      REJECTS this snapshot") ||
                                  contains(out, "\"restores_inspected\":false") ||
                                  contains(out, "\"restores_inspected\": false");
        const bool says_unchecked = contains(out, "master:      not checked") ||
                                    contains(out, "\"restores_inspected\":null") ||
                                    contains(out, "\"restores_inspected\": null");
        if (run.exit_code == 3) {
          // Bytes the master cannot decode: an error naming them; what was streamed before it (dump
          // writes its header first) must not claim the master restores the snapshot.
          EXPECT_TRUE(rejected) << what << ": exit 3 where quota-rebuild restores: " << run.err;
          EXPECT_FALSE(says_restores) << what;
          continue;
        }
        EXPECT_TRUE(says_restores || says_rejects || says_unchecked) << what << ": no master verdict";
        if (rejected) {
          EXPECT_FALSE(says_restores) << what << ": says the master restores a snapshot quota-rebuild rejects";
        } else {
          EXPECT_FALSE(says_rejects) << what << ": says the master rejects a snapshot quota-rebuild restores";
        }
      }
    }
  }
  EXPECT_GE(rejecting, 2u);  // inspect-findings and inspect-diff-b at least
}

TEST(SnapshotInspectDocuments, EveryDocumentCarriesTheHeaderBlockAndHexOfANonUtf8Store) {
  test::TempDir dir;
  const fs::path odd = dir.path() / "st\xff\xfeore";  // not UTF-8
  fs::create_directory_symlink(test::source_path("snapshots/inspect-findings/store"), odd);
  const std::string hex_of_odd_part = "7374fffe6f7265";
  for (const std::string command :
       {"summary", "tenants", "top", "segments", "tasks", "objects", "verify", "dump", "survival"}) {
    const auto run = test::run_tool(
        "snapshot-inspect", {command, "--store", odd.string(), "--restore-time", "1787375520123", "--format", "json"});
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << command << ": " << run.err;
    const auto doc = nlohmann::json::parse(run.out);  // the text is UTF-8: U+FFFD stands for the bytes
    ASSERT_TRUE(doc.contains("source")) << command;
    EXPECT_EQ(doc.at("restore_time_ms"), 1787375520123ULL) << command;
    ASSERT_TRUE(doc.contains("master")) << command;
    EXPECT_EQ(doc.at("master").at("restores_inspected"), false) << command;  // a DRAINING segment
    EXPECT_EQ(doc.at("source").at("snapshot_id"), "20260822_051200_123") << command;
    ASSERT_TRUE(doc.at("source").contains("snapshot_dir_hex")) << command;
    EXPECT_TRUE(contains(doc.at("source").at("snapshot_dir_hex").get<std::string>(), hex_of_odd_part)) << command;
  }
}

TEST(SnapshotInspectDocuments, ObjectsTextSaysWhenTheMasterRejects) {
  const auto run =
      test::run_tool("snapshot-inspect", {"objects", "--store", test::source_path("snapshots/inspect-findings/store"),
                                          "--restore-time", "1787375520123", "--limit", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "\nmaster:      REJECTS this snapshot: segment 5-6 ('seg-b') has status DRAINING"))
      << run.out;
}

TEST(SnapshotInspectErrors, AShardErrorNamesTheSnapshotTheFileAndTheBlobOffset) {
  const std::string store = test::source_path("snapshots/inspect-corrupt/store");
  for (const std::string command : {"summary", "segments", "objects", "verify", "dump"}) {
    const auto run = test::run_tool("snapshot-inspect", {command, "--store", store});
    EXPECT_EQ(run.exit_code, 3) << command;
    EXPECT_TRUE(contains(run.err, "snapshot-inspect: snapshot 20260822_051200_123 in " + store +
                                      "/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123: metadata: "
                                      "shard 963 (BIN at byte offset 14): shard map has no \"metadata\" array"))
        << command << ": " << run.err;
  }
}

}  // namespace
}  // namespace moonquota::inspect
