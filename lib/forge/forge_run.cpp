#include "forge/forge_run.hpp"

#include <filesystem>
#include <system_error>

#include "forge/scenario.hpp"
#include "forge/store_writer.hpp"

namespace moonquota::forge {

util::Result<ForgeOutcome> run_forge(const ForgeRequest& request) {
  const int inputs = (request.scenario_path.empty() ? 0 : 1) + (request.large ? 1 : 0) + (request.oplog ? 1 : 0);
  if (inputs != 1) return util::Status::invalid_argument("give one of a SCENARIO.json, --large N or --oplog-large N");
  if (request.large_tail && !request.large) return util::Status::invalid_argument("--oplog-tail needs --large N");
  if (request.large_tail && request.large_tail->entries == 0) {
    return util::Status::invalid_argument("--oplog-tail needs at least 1 entry");
  }
  ForgeOutcome outcome;
  if (request.oplog) {
    if (request.oplog->entries == 0) return util::Status::invalid_argument("--oplog-large needs at least 1 entry");
    std::error_code ec;  // a failure shows when the OpLog is written
    std::filesystem::create_directories(request.out_dir, ec);
    outcome.oplog = synthesize_oplog(*request.oplog);
    return outcome;
  }
  if (request.large) {
    LargeStoreOptions options = *request.large;
    options.force = request.force;
    MQ_ASSIGN_OR_RETURN(outcome.large, write_large_store(options, request.out_dir));
    if (request.large_tail) outcome.oplog = continue_large_store(options, *request.large_tail);
    return outcome;
  }
  MQ_ASSIGN_OR_RETURN(std::string text, read_scenario_text(request.scenario_path));
  MQ_ASSIGN_OR_RETURN(Scenario scenario, parse_scenario_file(text, request.scenario_path));
  StoreWriteOptions options;
  options.force = request.force;
  MQ_RETURN_IF_ERROR(write_store(scenario, request.out_dir, options));
  MQ_ASSIGN_OR_RETURN(outcome.oplog, parse_oplog_scenario(text, scenario.cluster_id));
  return outcome;
}

}  // namespace moonquota::forge
