// snapshot-golden's commands (docs/cli/snapshot-golden.md): `check` and `record` over fixture
// sets. Per fixture: its args file as quota-rebuild flags (parsed by the tool, which owns the
// flag definitions), the store and policy of the folder, then the fingerprint and the rebuilt
// table compared with fingerprint.json, expected.json and master.json (check), or written into
// them (record).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/rebuild_command.hpp"
#include "format/allowed_changes_yaml.hpp"
#include "golden/fixture_set.hpp"
#include "golden/golden_verdict.hpp"
#include "util/status.hpp"

namespace moonquota::app {

inline constexpr const char* k_golden_expected_file = "expected.json";
inline constexpr const char* k_golden_fingerprint_file = "fingerprint.json";
inline constexpr const char* k_golden_master_file = "master.json";
inline constexpr const char* k_golden_policy_file = "policy.yaml";
inline constexpr const char* k_golden_args_file = "args";

// The words of an args file as quota-rebuild flags. Errors: invalid_argument naming the flag.
using GoldenArgsParser = std::function<util::Result<RebuildArgs>(const std::vector<std::string>& words)>;

struct GoldenArgs {
  std::vector<std::string> dirs;  // fixture sets or fixture folders
  bool strict = false;            // check: format drift fails
  bool force = false;             // record: change existing accounts
  unsigned threads = 0;           // 0: all cores
  GoldenArgsParser parse_rebuild_args;
  util::NetLog net_log;
};

struct GoldenCheckOutcome {
  std::vector<golden::SetResult> sets;
  golden::VerdictCounts counts;
  // 1: a failure (unreadable, accounts-drift, master-disagrees; format-drift with strict); 4: a
  // fixture could not be checked because S3, etcd or Redis could not be reached (its verdict is
  // unreadable; the exit says the check did not run, not that anything drifted).
  int exit_code = 0;
};

// Finds every set first (errors: a DIR that is no directory or holds no fixture, a bad
// allowed-changes.yaml: bad input, naming the file), then checks each fixture. A fixture that
// cannot be checked is a verdict (unreadable), never an error.
[[nodiscard]] util::Result<GoldenCheckOutcome> run_golden_check(const GoldenArgs& args);

struct GoldenRecordOutcome {
  std::vector<golden::RecordedFixture> fixtures;
  int exit_code = 0;  // 1: a fixture could not be recorded, or its accounts would change without --force; 4: a service
};

// Writes expected.json (quota-rebuild's JSON) and fingerprint.json of every fixture (atomically),
// and an empty args file where a named fixture folder has none. A fixture whose existing
// expected.json holds other accounts is left untouched unless `force`.
[[nodiscard]] util::Result<GoldenRecordOutcome> run_golden_record(const GoldenArgs& args);

}  // namespace moonquota::app
