// snapshot-golden end to end (the real tool on fixture folders written here): the issue's
// mutations each get their verdict, record refuses to change accounts without --force, and the
// reports say what differs.
#include "app/golden_command.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden/fixture_set.hpp"
#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/hashing.hpp"

namespace moonquota::app {
namespace {

using nlohmann::json;
using test::TempDir;
using test::fs::path;

constexpr const char* k_id = "20260822_051200_123";
constexpr const char* k_segment = "11-22";

std::uint32_t shard_of(const model::ObjectRecord& o) { return util::metadata_shard_index(o.tenant_id, o.key, ""); }

model::ObjectRecord memory_object(const std::string& key, std::uint64_t size, std::uint64_t replica_id) {
  return test::make_object("alpha", key, size, {test::memory_replica(replica_id, k_segment, size)});
}

// The raw shard of `o` with one element more than its layout (the object is the shard's last value).
std::string shard_with_extra_element(const model::ObjectRecord& o) {
  std::string raw = test::shard_raw_in_order({o});
  const std::size_t header = 1 + 9 + 1 + 1 + 1 + o.tenant_id.size() + 1 + o.key.size();
  raw[header] = static_cast<char>(static_cast<unsigned char>(raw[header]) + 1);
  raw.push_back('\x05');
  return raw;
}

// A fixture folder: one snapshot of two objects of tenant alpha on one segment (600 + 400 bytes
// charged), a policy, args; `extra_element` gives the 600-byte object (v5) one element more.
void write_fixture(const path& dir, bool extra_element = false) {
  auto big = memory_object("big", 600, 1);
  big.checksum = 99;
  const auto small = memory_object("small", 400, 2);
  const std::string big_raw = extra_element ? shard_with_extra_element(big) : test::shard_raw_in_order({big});
  std::vector<std::pair<std::uint32_t, std::string>> shards = {{shard_of(big), big_raw}};
  const std::uint32_t small_shard = shard_of(small) == shard_of(big) ? (shard_of(big) + 1) % 1024 : shard_of(small);
  shards.emplace_back(small_shard, test::shard_raw_in_order({small}));
  std::sort(shards.begin(), shards.end());
  test::SegmentSpec segment;
  segment.id = k_segment;
  segment.name = "seg";
  test::write_snapshot(
      test::cluster_root(dir / "store"), k_id,
      test::snapshot_files(k_id, test::metadata_file_bytes(shards), test::make_segments_payload({segment})));
  test::write_file(dir / "policy.yaml", "version: 1\ntenants:\n  - name: \"alpha\"\n    quota: 1048576\n");
  test::write_file(dir / "args", "# fixture\n--restore-time 1787375520123\n");
}

test::ToolRun golden(const std::vector<std::string>& args) { return test::run_tool("snapshot-golden", args); }

json check_json(const path& set, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"check", set.string(), "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = golden(args);
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  return json::parse(run.out, nullptr, false);
}

const json& fixture(const json& report, const std::string& name) {
  for (const auto& f : report["fixtures"]) {
    if (f["name"] == name) return f;
  }
  static const json none;
  ADD_FAILURE() << "no fixture " << name;
  return none;
}

// A set of one recorded fixture "f" in a temp dir.
struct RecordedSet {
  TempDir tmp;
  path set = tmp.path() / "set";
  path dir = set / "f";
  RecordedSet() {
    write_fixture(dir);
    const auto run = golden({"record", set.string()});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  }
};

void replace_in_file(const path& file, const std::string& from, const std::string& to) {
  std::string text = test::read_file(file);
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << file;
  text.replace(at, from.size(), to);
  test::write_file(file, text);
}

// expected.json with tenant alpha's charged_bytes set to `charged` (its totals untouched).
void set_expected_charge(const path& file, std::uint64_t charged) {
  json j = json::parse(test::read_file(file));
  bool found = false;
  for (auto& row : j["tenants"]) {
    if (row["tenant_id"] == "alpha") {
      row["charged_bytes"] = charged;
      found = true;
    }
  }
  ASSERT_TRUE(found) << j.dump();
  test::write_file(file, j.dump(2));
}

TEST(GoldenFixtures, OurSnapshotsAreAFixtureSet) {
  auto set = golden::find_fixture_set(test::source_path("snapshots"));
  ASSERT_TRUE(set.ok()) << set.status().to_string();
  EXPECT_EQ(set->name, "snapshots");
  std::vector<std::string> names;
  for (const auto& f : set->fixtures) names.push_back(f.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "genuine/s1_single_segment_basic"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "sample"), names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(GoldenFixtures, ASetWithoutFixturesAndAMissingFolderAreBadInput) {
  TempDir tmp;
  test::fs::create_directories(tmp.path() / "empty" / "x");
  EXPECT_EQ(golden({"check", (tmp.path() / "empty").string()}).exit_code, 3);
  const auto missing = golden({"check", (tmp.path() / "nope").string()});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("not a directory"), std::string::npos) << missing.err;
}

TEST(GoldenCheck, OurSnapshotsPassWithTheRealMastersTables) {
  const json report = check_json(test::source_path("snapshots"));
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["schema"], "snapshot-golden-check/1");
  EXPECT_EQ(report["counts"]["failures"], 0);
  EXPECT_EQ(report["counts"]["pass"], report["counts"]["fixtures"]);
  const json& s1 = fixture(report, "genuine/s1_single_segment_basic");
  ASSERT_TRUE(s1["master"].is_object());  // master.json: what a real master served after restoring it
  EXPECT_TRUE(s1["master"]["matches"].get<bool>());
  EXPECT_GT(s1["master"]["compared"].get<int>(), 0);
}

TEST(GoldenCheck, AFreshRecordPasses) {
  RecordedSet s;
  const json report = check_json(s.set);
  EXPECT_EQ(fixture(report, "f")["verdict"], "pass");
  EXPECT_EQ(report["exit_code"], 0);
}

TEST(GoldenCheck, AManifestVersionChangeIsUnreadable) {
  RecordedSet s;
  test::write_file(path(test::cluster_root(s.dir / "store")) / k_id / "manifest.txt",
                   std::string("messagepack|1.0.1|") + k_id);
  const auto run = golden({"check", s.set.string(), "--format", "json"});
  EXPECT_EQ(run.exit_code, 1);
  const json report = json::parse(run.out);
  EXPECT_EQ(fixture(report, "f")["verdict"], "unreadable");
  EXPECT_NE(fixture(report, "f")["unreadable_reason"].get<std::string>().find("EMPTY"), std::string::npos);
}

TEST(GoldenCheck, AnUnknownSegmentsKeyIsFormatDriftOnly) {
  RecordedSet s;
  const path segments = path(test::cluster_root(s.dir / "store")) / k_id / "segments";
  std::string raw = test::unzstd(test::read_file(segments));
  ASSERT_EQ(static_cast<unsigned char>(raw[0]), 0x85U);
  raw[0] = static_cast<char>(0x86U);
  raw += test::msgpack([](format::MsgpackWriter& w) {
    w.pack_str("zz");
    w.pack_uint(1);
  });
  test::write_file(segments, util::zstd_compress(raw));
  const json report = check_json(s.set);
  const json& f = fixture(report, "f");
  EXPECT_EQ(f["verdict"], "format-drift");
  EXPECT_TRUE(f["accounts"]["matches"].get<bool>());
  ASSERT_EQ(f["format"]["added"].size(), 2u);  // the key itself and the top level's key list
  EXPECT_EQ(report["exit_code"], 0);           // a warning
  const json strict = check_json(s.set, {"--strict"});
  EXPECT_EQ(strict["exit_code"], 1);
  EXPECT_EQ(strict["counts"]["failures"], 1);
}

// One element more than v5: a layout the format does not have (format drift) and, by the
// master's rule, the object skipped: its 600 charged bytes leave the account (accounts drift).
TEST(GoldenCheck, AnObjectOneElementPastV5DriftsTheFormatAndTheAccounts) {
  RecordedSet s;
  test::fs::remove_all(s.dir / "store");
  write_fixture(s.dir, true);
  const json report = check_json(s.set);
  const json& f = fixture(report, "f");
  EXPECT_EQ(f["verdict"], "accounts-drift");
  bool unknown_layout = false;
  for (const auto& a : f["format"]["added"]) {
    unknown_layout = unknown_layout || (a["feature"].get<std::string>().find("object: (12+N)") != std::string::npos &&
                                        a["unknown"].get<bool>());
  }
  EXPECT_TRUE(unknown_layout) << f["format"].dump();
  ASSERT_EQ(f["accounts"]["differences"].size(), 1u) << f["accounts"].dump();
  const json& d = f["accounts"]["differences"][0];
  EXPECT_EQ(d["tenant_id"], "alpha");
  EXPECT_EQ(d["field"], "charged_bytes");
  EXPECT_EQ(d["expected"], 1000);
  EXPECT_EQ(d["rebuilt"], 400);
}

TEST(GoldenCheck, AnEditedExpectedChargeIsAccountsDriftAndAnAllowedChangePasses) {
  RecordedSet s;
  set_expected_charge(s.dir / "expected.json", 1001);
  json report = check_json(s.set);
  EXPECT_EQ(fixture(report, "f")["verdict"], "accounts-drift");
  EXPECT_EQ(report["exit_code"], 1);
  test::write_file(s.set / "allowed-changes.yaml",
                   "changes:\n"
                   "  - {fixture: f, tenant: alpha, field: charged_bytes, old: 1001, new: 1000, reason: test}\n"
                   "  - {fixture: f, tenant: beta, field: tenant, old: present, new: absent, reason: stale}\n");
  report = check_json(s.set);
  EXPECT_EQ(fixture(report, "f")["verdict"], "pass");
  ASSERT_EQ(fixture(report, "f")["allowed"].size(), 1u);
  EXPECT_EQ(fixture(report, "f")["allowed"][0]["reason"], "test");
  ASSERT_EQ(report["sets"][0]["unused_allowed_changes"].size(), 1u);
  EXPECT_EQ(report["sets"][0]["unused_allowed_changes"][0]["tenant_id"], "beta");
}

TEST(GoldenCheck, AMasterTableThatDiffersIsMasterDisagrees) {
  RecordedSet s;
  test::write_file(s.dir / "master.json",
                   R"({"success": true, "data": [{"tenant_id": "alpha", "charged_bytes": 999,
                       "requested_quota_bytes": 1048576, "effective_quota_bytes": 1048576,
                       "admission_closed": false, "over_quota": false, "has_explicit_policy": true}]})");
  const auto run = golden({"check", s.set.string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("MASTER-DISAGREES"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("charged_bytes: expected 999, rebuilt 1000"), std::string::npos) << run.out;
  replace_in_file(s.dir / "master.json", "999", "1000");
  EXPECT_EQ(golden({"check", s.set.string()}).exit_code, 0);
}

TEST(GoldenCheck, MissingFilesAndABadAllowedListAreNamed) {
  RecordedSet s;
  test::fs::remove(s.dir / "fingerprint.json");
  json report = check_json(s.set);
  EXPECT_EQ(fixture(report, "f")["verdict"], "unreadable");
  EXPECT_NE(fixture(report, "f")["unreadable_reason"].get<std::string>().find("no fingerprint.json"),
            std::string::npos);
  test::write_file(s.set / "allowed-changes.yaml", "changes:\n  - {fixture: f, tenant: a, field: size}\n");
  const auto bad = golden({"check", s.set.string()});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.err.find("allowed-changes.yaml line 2"), std::string::npos) << bad.err;
}

TEST(GoldenRecord, RefusesToChangeAccountsWithoutForce) {
  RecordedSet s;
  const std::string before = test::read_file(s.dir / "expected.json");
  replace_in_file(s.dir / "policy.yaml", "1048576", "2097152");
  const auto refused = golden({"record", s.set.string()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.out.find("NOT RECORDED"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("requested_quota_bytes: expected 1048576, rebuilt 2097152"), std::string::npos)
      << refused.out;
  EXPECT_EQ(test::read_file(s.dir / "expected.json"), before);
  const auto forced = golden({"record", s.set.string(), "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.out << forced.err;
  EXPECT_NE(forced.out.find("expected.json updated"), std::string::npos) << forced.out;
  EXPECT_EQ(check_json(s.set)["exit_code"], 0);
  const auto again = golden({"record", s.set.string()});
  EXPECT_NE(again.out.find("expected.json unchanged, fingerprint.json unchanged"), std::string::npos) << again.out;
}

TEST(GoldenRecord, AFolderWithAStoreBecomesAFixture) {
  TempDir tmp;
  const path dir = tmp.path() / "new";
  write_fixture(dir);
  test::fs::remove(dir / "args");
  const auto run = golden({"record", dir.string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("args created"), std::string::npos) << run.out;
  EXPECT_TRUE(golden::is_fixture_dir(dir.string(), false));
  EXPECT_NE(test::read_file(dir / "expected.json").find("\"store\": \"store\""), std::string::npos);
}

TEST(GoldenCheck, GithubAnnotationsAndJunitNameTheFixture) {
  RecordedSet s;
  set_expected_charge(s.dir / "expected.json", 7);
  const path xml = s.tmp.path() / "out.xml";
  const auto run = golden({"check", s.set.string(), "--format", "github", "--junit", xml.string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out.rfind("::error file=", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("title=snapshot-golden set/f::accounts-drift: f%0A"), std::string::npos) << run.out;
  const std::string junit = test::read_file(xml);
  EXPECT_NE(junit.find("<testsuite name=\"set\" tests=\"1\" failures=\"1\" errors=\"0\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure type=\"accounts-drift\""), std::string::npos) << junit;
}

}  // namespace
}  // namespace moonquota::app

namespace moonquota::app {
namespace {

// snapshot-forge --fixture writes a fixture folder that passes, whose accounts are those of the
// bundled fixture of the same scenario.
TEST(GoldenForge, AScenarioBecomesAFixtureInOneCommand) {
  TempDir tmp;
  const path dir = tmp.path() / "set" / "promote";
  const auto forged = test::run_tool(
      "snapshot-forge", {test::source_path("snapshots/promote-worked/scenario.json"), "--fixture", dir.string(),
                         "--policy", test::source_path("snapshots/promote-worked/policy.yaml"), "-q"});
  ASSERT_EQ(forged.exit_code, 0) << forged.out << forged.err;
  EXPECT_NE(test::read_file(dir / "args").find("--oplog-file oplog.jsonl"), std::string::npos);
  const json report = check_json(tmp.path() / "set");
  EXPECT_EQ(fixture(report, "promote")["verdict"], "pass");
  const json ours = json::parse(test::read_file(dir / "expected.json"));
  const json bundled = json::parse(test::read_source_file("snapshots/promote-worked/expected.json"));
  EXPECT_EQ(ours["tenants"], bundled["tenants"]);
  const auto again = test::run_tool(
      "snapshot-forge", {test::source_path("snapshots/promote-worked/scenario.json"), "--fixture", dir.string()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("is not empty"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace moonquota::app

namespace moonquota::app {
namespace {

// Review findings of the first version: sets of one folder name, a set named twice, line ends in
// JUnit, the file an unreadable fixture's annotation names, the stored id of an edited file.
TEST(GoldenCheck, SetsOfOneNameAreNamedByTheirPathsAndASetNamedTwiceRunsOnce) {
  TempDir tmp;
  write_fixture(tmp.path() / "a" / "set" / "f");
  write_fixture(tmp.path() / "b" / "set" / "f");
  for (const char* set : {"a/set", "b/set"}) {
    ASSERT_EQ(golden({"record", (tmp.path() / set).string()}).exit_code, 0);
  }
  const auto a = (tmp.path() / "a" / "set").string();
  const auto b = (tmp.path() / "b" / "set").string();
  const auto run = golden({"check", a, b, a + "/", "--format", "json"});
  const json report = json::parse(run.out);
  ASSERT_EQ(report["sets"].size(), 2u);
  EXPECT_EQ(report["sets"][0]["name"], a);
  EXPECT_EQ(report["sets"][1]["name"], b);
  EXPECT_EQ(report["counts"]["fixtures"], 2);
  EXPECT_EQ(report["sets"][1]["counts"]["pass"], 1);
}

TEST(GoldenCheck, JunitKeepsLineEndsAndAnUnreadableAnnotationNamesTheArgs) {
  RecordedSet s;
  test::fs::remove(s.dir / "fingerprint.json");
  set_expected_charge(s.dir / "expected.json", 5);
  test::fs::rename(s.dir / "expected.json", s.dir / "kept.json");
  const path xml = s.tmp.path() / "out.xml";
  const auto run = golden({"check", s.set.string(), "--format", "github", "--junit", xml.string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("::error file=" + (s.dir / "args").string()), std::string::npos) << run.out;
  const std::string junit = test::read_file(xml);
  EXPECT_NE(junit.find("message=\"unreadable: no fingerprint.json"), std::string::npos) << junit;
  EXPECT_EQ(junit.find("\\x0a"), std::string::npos) << junit;
}

TEST(GoldenCheck, TheStoredIdIsThatOfTheStoredShape) {
  RecordedSet s;
  json fp = json::parse(test::read_file(s.dir / "fingerprint.json"));
  const std::string recorded = fp["fingerprint_id"];
  fp["sections"]["manifest"].push_back({{"feature", "planted"}, {"count", 1}});
  test::write_file(s.dir / "fingerprint.json", fp.dump(2));  // the id in the file is left as it was
  const json report = check_json(s.set);
  const json& f = fixture(report, "f");
  EXPECT_EQ(f["verdict"], "format-drift");
  EXPECT_EQ(f["format"]["fingerprint_id"], recorded);
  EXPECT_NE(f["format"]["stored_fingerprint_id"], recorded);
  ASSERT_EQ(f["format"]["removed"].size(), 1u);
  EXPECT_EQ(f["format"]["removed"][0]["feature"], "planted");
}

}  // namespace
}  // namespace moonquota::app

namespace moonquota::app {
namespace {

// A service the args name that cannot be reached: the fixture is unreadable and the run exits 4
// (the check did not run), not 1 (something drifted).
TEST(GoldenCheck, ADeadServiceExitsFourNotOne) {
  RecordedSet s;
  test::write_file(s.dir / "args", "--restore-time 1787375520123 --policy-etcd 127.0.0.1:1 --timeout-ms 300\n");
  const auto run = golden({"check", s.set.string(), "--format", "json"});
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  const json report = json::parse(run.out);
  EXPECT_EQ(fixture(report, "f")["verdict"], "unreadable");
  EXPECT_EQ(report["exit_code"], 4);
  EXPECT_EQ(golden({"record", s.set.string()}).exit_code, 4);
}

}  // namespace
}  // namespace moonquota::app
