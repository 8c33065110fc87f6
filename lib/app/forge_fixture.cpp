#include "app/forge_fixture.hpp"

#include <filesystem>

#include "forge/scenario.hpp"
#include "util/atomic_file.hpp"
#include "util/file_reader.hpp"

namespace moonquota::app {

namespace {

namespace fs = std::filesystem;
using util::Status;

constexpr std::uint64_t k_max_policy_copy_bytes = 1 << 20;

bool is_empty_dir(const std::string& dir) {
  std::error_code ec;
  return !fs::exists(dir, ec) || (fs::is_directory(dir, ec) && fs::is_empty(dir, ec));
}

// The instant a fixture restores at: the latest snapshot's creation (its leases as then).
std::uint64_t latest_created_at(const forge::Scenario& scenario) {
  const forge::ForgedSnapshot* latest = nullptr;
  for (const auto& s : scenario.snapshots) {
    if (s.latest || latest == nullptr) latest = &s;
  }
  return latest == nullptr || latest->descriptor.created_at_ms < 0
             ? 0
             : static_cast<std::uint64_t>(latest->descriptor.created_at_ms);
}

}  // namespace

util::Result<ForgeFixtureOutcome> run_forge_fixture(const ForgeFixtureArgs& args) {
  if (args.dir.rfind("s3://", 0) == 0) return Status::invalid_argument("--fixture takes a local folder");
  if (!args.force && !is_empty_dir(args.dir)) {
    return Status::invalid_argument("--fixture '" + args.dir +
                                    "' is not empty: --force replaces the fixture's files, or name a new folder");
  }
  MQ_ASSIGN_OR_RETURN(const std::string scenario_text, forge::read_scenario_text(args.scenario_path));
  MQ_ASSIGN_OR_RETURN(const forge::Scenario scenario, forge::parse_scenario_file(scenario_text, args.scenario_path));
  std::optional<std::string> policy_text;
  if (args.policy) {
    auto text = util::read_small_file(*args.policy, k_max_policy_copy_bytes);
    if (!text.ok()) return text.status().with_context("--policy");
    policy_text = std::move(text).value();
  }
  std::error_code ec;
  fs::create_directories(args.dir, ec);
  if (ec) return Status::io_error("cannot create '" + args.dir + "': " + ec.message());

  ForgeArgs forge;
  forge.request.scenario_path = args.scenario_path;
  forge.request.out_dir = (fs::path(args.dir) / "store").string();
  forge.request.force = args.force;
  forge.oplog_export = (fs::path(args.dir) / "oplog.jsonl").string();
  forge.log = args.log;
  ForgeFixtureOutcome outcome;
  MQ_ASSIGN_OR_RETURN(outcome.forged, run_forge_command(forge));

  const std::uint64_t restore_time = args.restore_time_ms.value_or(latest_created_at(scenario));
  std::string text =
      "# The quota-rebuild flags that reproduce this fixture (snapshot-golden; paths relative to this folder),\n"
      "# written by snapshot-forge --fixture from " +
      fs::path(args.scenario_path).filename().string() + ".\n";
  text += "--restore-time " + std::to_string(restore_time) + "\n";
  if (scenario.cluster_id != "mooncake_cluster") text += "--cluster-id " + scenario.cluster_id + "\n";
  if (outcome.forged.oplog && !outcome.forged.oplog->export_path.empty()) text += "--oplog-file oplog.jsonl\n";
  outcome.args_text = text;
  MQ_RETURN_IF_ERROR(util::write_file_atomically((fs::path(args.dir) / k_golden_args_file).string(), text));
  MQ_RETURN_IF_ERROR(util::write_file_atomically((fs::path(args.dir) / "scenario.json").string(), scenario_text));
  if (policy_text) {
    MQ_RETURN_IF_ERROR(util::write_file_atomically((fs::path(args.dir) / k_golden_policy_file).string(), *policy_text));
  }
  GoldenArgs golden;
  golden.dirs = {args.dir};
  golden.force = true;  // a new fixture: whatever stood there was replaced with --force
  golden.threads = args.threads;
  golden.parse_rebuild_args = args.parse_rebuild_args;
  golden.net_log = args.log;
  MQ_ASSIGN_OR_RETURN(outcome.recorded, run_golden_record(golden));
  return outcome;
}

}  // namespace moonquota::app
