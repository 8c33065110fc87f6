// `snapshot-forge SCENARIO --fixture DIR`: a snapshot-golden fixture folder in one command
// (docs/golden.md): the scenario's store in DIR/store, its OpLog tail in DIR/oplog.jsonl, the
// scenario itself and the policy beside, an args file that reproduces the rebuild (the restore
// time, the cluster, the OpLog), then expected.json and fingerprint.json recorded by today's tools.
#pragma once

#include <optional>
#include <string>

#include "app/forge_command.hpp"
#include "app/golden_command.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct ForgeFixtureArgs {
  std::string scenario_path;
  std::string dir;                               // the fixture folder (created)
  std::optional<std::string> policy;             // copied to DIR/policy.yaml
  std::optional<std::uint64_t> restore_time_ms;  // default: the latest snapshot's created_at_ms
  bool force = false;                            // replace the files of a non-empty folder
  unsigned threads = 0;
  GoldenArgsParser parse_rebuild_args;
  util::NetLog log;
};

struct ForgeFixtureOutcome {
  ForgeCommandOutcome forged;
  GoldenRecordOutcome recorded;
  std::string args_text;  // what DIR/args holds
};

// Errors: invalid_argument (a non-empty DIR without force, an s3:// DIR), those of loading the
// scenario, forging it (no partial store is left), reading the policy and writing the files.
[[nodiscard]] util::Result<ForgeFixtureOutcome> run_forge_fixture(const ForgeFixtureArgs& args);

}  // namespace moonquota::app
