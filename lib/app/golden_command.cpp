#include "app/golden_command.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "app/exit_codes.hpp"
#include "inspect/snapshot_fingerprint.hpp"
#include "inspect/snapshot_select.hpp"
#include "reconcile/expected_table_reader.hpp"
#include "report/inspect/fingerprint_report.hpp"
#include "report/rebuild/rebuild_report.hpp"
#include "util/atomic_file.hpp"
#include "util/elapsed.hpp"
#include "util/file_reader.hpp"

namespace moonquota::app {

namespace {

namespace fs = std::filesystem;
using util::Status;

constexpr std::uint64_t k_max_fingerprint_file_bytes = 64ULL << 20;
constexpr const char* k_args_template =
    "# The quota-rebuild flags that reproduce this fixture, e.g. --restore-time MS, --path promote,\n"
    "# --oplog-file FILE (paths relative to this folder). store/ and policy.yaml are added.\n";

std::string in_fixture(const golden::Fixture& f, const char* name) { return (fs::path(f.dir) / name).string(); }

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// A relative path of an args file names a file of the fixture folder.
void resolve_in(const std::string& dir, std::string& path) {
  if (!path.empty() && path.rfind("s3://", 0) != 0 && fs::path(path).is_relative()) {
    path = (fs::path(dir) / path).string();
  }
}
void resolve_in(const std::string& dir, std::optional<std::string>& path) {
  if (path) resolve_in(dir, *path);
}

util::Result<RebuildPlan> plan_fixture(const GoldenArgs& args, const golden::Fixture& f) {
  std::vector<std::string> words;
  const std::string args_file = in_fixture(f, k_golden_args_file);
  if (exists(args_file)) {
    auto read = golden::read_args_words(args_file);
    if (!read.ok()) return read.status().with_context("args");
    words = std::move(read).value();
  }
  auto parsed = args.parse_rebuild_args(words);
  if (!parsed.ok()) return parsed.status().with_context(args_file);
  RebuildArgs r = std::move(parsed).value();
  if (r.expect || r.explain) {
    return Status::invalid_argument(args_file +
                                    ": --expect and --explain are not fixture flags (expected.json is "
                                    "the fixture's expected table)");
  }
  resolve_in(f.dir, r.store.store);
  resolve_in(f.dir, r.store.snapshot_dir);
  resolve_in(f.dir, r.policy);
  resolve_in(f.dir, r.oplog_file);
  if (!r.store.store && !r.store.snapshot_dir) r.store.store = in_fixture(f, "store");
  if (!r.policy && !r.policy_etcd && exists(in_fixture(f, k_golden_policy_file))) {
    r.policy = in_fixture(f, k_golden_policy_file);
  }
  r.threads = args.threads;
  r.net_log = args.net_log;
  return plan_rebuild(r);
}

struct FixtureReading {
  inspect::SnapshotFingerprint fingerprint;
  quota::RebuildResult result;
};

// The fixture as today's tools read it: the rebuilt table, and the fingerprint of the snapshot
// the master restores (a rejected latest is not the format the fixture serves from).
util::Result<FixtureReading> read_fixture(const GoldenArgs& args, const golden::Fixture& f) {
  MQ_ASSIGN_OR_RETURN(RebuildPlan plan, plan_fixture(args, f));
  MQ_ASSIGN_OR_RETURN(RebuildOutcome outcome, run_rebuild_command(plan));
  const quota::RebuildResult& result = outcome.result;
  if (result.starts_empty()) {
    return Status::corruption("the master would start with EMPTY metadata: " +
                              (result.promote ? result.promote->validation.failure : result.outcome.empty_reason));
  }
  restore::StoreSelection selection = plan.store.selection;
  if (selection.snapshot_dir.empty()) {
    if (result.outcome.state)
      selection.snapshot = result.outcome.state->snapshot_id;
    else if (result.snapshot)
      selection.snapshot = result.snapshot->snapshot_id;
  }
  const auto store = open_selected_store(plan.store);
  MQ_ASSIGN_OR_RETURN(const inspect::SelectedSnapshot selected, inspect::select_snapshot(*store, selection));
  inspect::FingerprintOptions options;
  options.threads = plan.request.restore.threads;
  options.max_payload_bytes = plan.request.restore.max_payload_bytes;
  auto fingerprint = inspect::fingerprint_snapshot(*store, selected, options);
  if (!fingerprint.ok()) return fingerprint.status().with_context("snapshot " + selected.snapshot_id);
  FixtureReading reading;
  reading.fingerprint = std::move(fingerprint).value();
  reading.result = std::move(outcome.result);
  return reading;
}

util::Result<std::string> read_fixture_file(const golden::Fixture& f, const char* name, std::uint64_t max_bytes) {
  const std::string path = in_fixture(f, name);
  if (!exists(path)) return Status::not_found(std::string("no ") + name + " (snapshot-golden record writes it)");
  auto text = util::read_small_file(path, max_bytes);
  if (!text.ok()) return text.status().with_context(name);
  return text;
}

util::Result<quota::ExpectedTable> read_table_file(const golden::Fixture& f, const char* name) {
  MQ_ASSIGN_OR_RETURN(const std::string text, read_fixture_file(f, name, quota::k_max_expected_file_bytes));
  return reconcile::parse_expected_table(text, name);
}

util::Result<inspect::SnapshotFingerprint> read_fingerprint_file(const golden::Fixture& f) {
  MQ_ASSIGN_OR_RETURN(const std::string text,
                      read_fixture_file(f, k_golden_fingerprint_file, k_max_fingerprint_file_bytes));
  return report::parse_fingerprint_json(text, k_golden_fingerprint_file);
}

golden::FixtureResult check_fixture(const GoldenArgs& args, const golden::Fixture& f,
                                    const std::vector<format::AllowedChange>& allowed, std::vector<bool>& used) {
  const auto start = util::SteadyClock::now();
  golden::FixtureResult r;
  r.name = f.name;
  r.dir = f.dir;
  const auto unreadable = [&](const Status& s) {
    r.unreadable_reason = s.message();
    r.service_unavailable = s.code() == util::StatusCode::unavailable;
    r.verdict = golden::Verdict::unreadable;
    r.seconds = static_cast<double>(util::ms_since(start)) / 1000.0;
    return r;
  };
  auto reading = read_fixture(args, f);
  if (!reading.ok()) return unreadable(reading.status());
  r.snapshot_id = reading->fingerprint.snapshot_id;
  auto stored = read_fingerprint_file(f);
  if (!stored.ok()) return unreadable(stored.status());
  r.format = golden::compare_fingerprints(*stored, reading->fingerprint);
  auto expected = read_table_file(f, k_golden_expected_file);
  if (!expected.ok()) return unreadable(expected.status());
  r.accounts = quota::compare_with_expected(reading->result.table, *expected);
  golden::apply_allowed_changes(f.name, "accounts", allowed, used, *r.accounts, r.allowed);
  if (exists(in_fixture(f, k_golden_master_file))) {
    auto master = read_table_file(f, k_golden_master_file);
    if (!master.ok()) return unreadable(master.status());
    r.master = quota::compare_with_expected(reading->result.table, *master);
    golden::apply_allowed_changes(f.name, "master", allowed, used, *r.master, r.allowed);
  }
  r.verdict = golden::decide_verdict(r);
  r.seconds = static_cast<double>(util::ms_since(start)) / 1000.0;
  return r;
}

util::Result<std::vector<format::AllowedChange>> read_allowed_changes(const golden::FixtureSet& set) {
  if (!set.allowed_changes) return std::vector<format::AllowedChange>{};
  auto text = util::read_small_file(*set.allowed_changes, format::k_max_allowed_changes_bytes);
  if (!text.ok()) return text.status();
  return format::parse_allowed_changes_yaml(*text, *set.allowed_changes);
}

util::Result<std::vector<golden::FixtureSet>> find_sets(const GoldenArgs& args) {
  if (args.dirs.empty()) return Status::invalid_argument("name at least one fixture set or fixture folder");
  std::vector<golden::FixtureSet> sets;
  std::vector<fs::path> seen;
  for (const auto& dir : args.dirs) {
    MQ_ASSIGN_OR_RETURN(golden::FixtureSet set, golden::find_fixture_set(dir));
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;  // named twice: checked once
    seen.push_back(canonical);
    sets.push_back(std::move(set));
  }
  // Two sets of one folder name (a/fixtures, b/fixtures) are named by their paths instead, so the
  // JUnit suites and the reports tell them apart.
  std::map<std::string, int> names;
  for (const auto& set : sets) ++names[set.name];
  for (auto& set : sets) {
    if (names[set.name] > 1) set.name = set.dir;
  }
  return sets;
}

std::string fingerprint_text(const inspect::SnapshotFingerprint& fp) {
  std::ostringstream out;
  report::render_fingerprint(fp, report::OutputFormat::json, out);
  return out.str();
}

// The table as quota-rebuild's JSON, with the fixture's paths relative to its folder ("store"), so
// the file reads the same wherever the set was recorded from.
std::string table_text(const golden::Fixture& f, quota::RebuildResult result) {
  const auto relative = [&](std::string& path) {
    if (path.empty() || path.rfind("s3://", 0) == 0) return;
    const fs::path rel = fs::path(path).lexically_relative(f.dir);
    if (!rel.empty() && *rel.begin() != "..") path = rel.generic_string();
  };
  relative(result.selection.store_dir);
  relative(result.selection.snapshot_dir);
  relative(result.policy_source);
  std::ostringstream out;
  report::render_rebuild(result, report::OutputFormat::json, out);
  return out.str();
}

golden::RecordedFixture record_fixture(const GoldenArgs& args, const golden::Fixture& f) {
  golden::RecordedFixture rec;
  rec.name = f.name;
  rec.dir = f.dir;
  auto reading = read_fixture(args, f);
  if (!reading.ok()) {
    rec.error = reading.status().message();
    rec.service_unavailable = reading.status().code() == util::StatusCode::unavailable;
    return rec;
  }
  // What is stored now, compared with today's.
  const bool had_expected = exists(in_fixture(f, k_golden_expected_file));
  if (had_expected) {
    auto old = read_table_file(f, k_golden_expected_file);
    if (old.ok()) rec.accounts = quota::compare_with_expected(reading->result.table, *old);
    const bool same = rec.accounts && rec.accounts->matches();
    rec.expected = same ? golden::FileChange::unchanged : golden::FileChange::updated;
    if (!same && !args.force) {
      rec.expected = golden::FileChange::refused;
      rec.fingerprint = golden::FileChange::refused;  // nothing of a refused fixture is written
      rec.error = old.ok() ? "its accounts would change (" + std::to_string(rec.accounts->differences.size()) +
                                 " field differences, " + std::to_string(rec.accounts->missing_in_rebuilt.size()) +
                                 " tenants gone, " + std::to_string(rec.accounts->missing_in_expected.size()) +
                                 " new): nothing written; --force records them"
                           : "its expected.json cannot be read (" + old.status().message() +
                                 "): nothing written; --force replaces it";
      return rec;
    }
  } else {
    rec.expected = golden::FileChange::created;
  }
  if (exists(in_fixture(f, k_golden_fingerprint_file))) {
    auto old = read_fingerprint_file(f);
    if (old.ok()) rec.format = golden::compare_fingerprints(*old, reading->fingerprint);
    rec.fingerprint = rec.format && rec.format->matches() ? golden::FileChange::unchanged : golden::FileChange::updated;
  } else {
    rec.fingerprint = golden::FileChange::created;
  }
  const auto write = [&](const char* name, const std::string& text) {
    Status s = util::write_file_atomically(in_fixture(f, name), text);
    if (!s.ok() && rec.error.empty()) rec.error = s.message();
  };
  if (rec.expected != golden::FileChange::unchanged) write(k_golden_expected_file, table_text(f, reading->result));
  if (rec.fingerprint != golden::FileChange::unchanged) {
    write(k_golden_fingerprint_file, fingerprint_text(reading->fingerprint));
  }
  if (!exists(in_fixture(f, k_golden_args_file))) {
    write(k_golden_args_file, k_args_template);
    rec.args_created = true;
  }
  return rec;
}

}  // namespace

util::Result<GoldenCheckOutcome> run_golden_check(const GoldenArgs& args) {
  MQ_ASSIGN_OR_RETURN(std::vector<golden::FixtureSet> sets, find_sets(args));
  std::vector<std::vector<format::AllowedChange>> allowed;
  for (const auto& set : sets) {
    MQ_ASSIGN_OR_RETURN(auto changes, read_allowed_changes(set));
    allowed.push_back(std::move(changes));
  }
  GoldenCheckOutcome outcome;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    golden::SetResult result;
    std::vector<bool> used(allowed[s].size(), false);
    for (const auto& fixture : sets[s].fixtures) {
      result.fixtures.push_back(check_fixture(args, fixture, allowed[s], used));
      outcome.counts.add(result.fixtures.back().verdict);
    }
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (!used[i]) result.unused_allowed_changes.push_back(allowed[s][i]);
    }
    result.set = std::move(sets[s]);
    outcome.sets.push_back(std::move(result));
  }
  outcome.exit_code = outcome.counts.failures(args.strict) > 0 ? k_exit_found : k_exit_ok;
  for (const auto& set : outcome.sets) {
    for (const auto& f : set.fixtures) {
      if (f.service_unavailable) outcome.exit_code = k_exit_service;  // the check could not run, not a drift
    }
  }
  return outcome;
}

util::Result<GoldenRecordOutcome> run_golden_record(const GoldenArgs& args) {
  MQ_ASSIGN_OR_RETURN(std::vector<golden::FixtureSet> sets, find_sets(args));
  GoldenRecordOutcome outcome;
  for (const auto& set : sets) {
    for (const auto& fixture : set.fixtures) {
      outcome.fixtures.push_back(record_fixture(args, fixture));
      const auto& recorded = outcome.fixtures.back();
      if (recorded.service_unavailable) {
        outcome.exit_code = k_exit_service;
      } else if (!recorded.error.empty() && outcome.exit_code == k_exit_ok) {
        outcome.exit_code = k_exit_found;
      }
    }
  }
  return outcome;
}

}  // namespace moonquota::app
