#include "app/forge_command.hpp"

#include "source/object_store_factory.hpp"
#include "source/oplog_source.hpp"
#include "source/s3_url.hpp"

namespace moonquota::app {

namespace {

void forge_log(const ForgeArgs& args, const std::string& message) {
  if (args.log) args.log(util::NetLogLevel::info, message);
}

// --out s3://: forged into a temporary directory, then uploaded.
util::Result<forge::ForgeOutcome> forge_to_s3(const ForgeArgs& args, ForgeCommandOutcome& outcome) {
  if (args.request.oplog) {
    return util::Status::invalid_argument("--oplog-large writes no snapshot store: give a local --out directory");
  }
  MQ_ASSIGN_OR_RETURN(const S3Settings settings, s3_settings_from_args(args.s3, args.log));
  forge::ForgeRequest request = args.request;
  MQ_RETURN_IF_ERROR(resolve_store_location(request.out_dir, settings));
  forge_log(args, "S3: " + source::describe(settings.config));
  const auto destination = source::open_writable_object_store(request.out_dir, settings.config, settings.net);
  MQ_ASSIGN_OR_RETURN(forge::S3ForgeOutcome uploaded, forge::run_forge_to_s3(request, *destination));
  outcome.out = request.out_dir;
  outcome.upload = uploaded.upload;
  return std::move(uploaded.forge);
}

util::Status write_forged_oplog(const ForgeArgs& args, const forge::ForgedOpLog& log, const WrittenOpLog& where) {
  if (!where.export_path.empty()) {
    forge_log(args, "writing " + std::to_string(log.kvs.size()) + " OpLog keys to " + where.export_path);
    MQ_RETURN_IF_ERROR(source::write_oplog_export_file(where.export_path, log.kvs));
  }
  if (!where.etcd.empty()) {
    forge_log(args, "writing " + std::to_string(log.kvs.size()) + " OpLog keys into etcd " + where.etcd + " (cluster " +
                        log.cluster_id + ")");
    MQ_RETURN_IF_ERROR(source::write_oplog_etcd(where.etcd, log.cluster_id, log.kvs));
  }
  return {};
}

}  // namespace

util::Result<ForgeCommandOutcome> run_forge_command(const ForgeArgs& args) {
  const bool to_s3 = source::is_s3_url(args.request.out_dir);
  if (args.request.large && !args.request.large_tail) {
    // A flag that would be ignored is a usage error.
    if (!args.oplog_export.empty())
      return util::Status::invalid_argument("--oplog-export needs --oplog-tail with --large");
    if (!args.oplog_etcd.empty()) return util::Status::invalid_argument("--oplog-etcd needs --oplog-tail with --large");
  }
  ForgeCommandOutcome outcome;
  forge::ForgeOutcome forged;
  if (to_s3) {
    MQ_ASSIGN_OR_RETURN(forged, forge_to_s3(args, outcome));
  } else {
    MQ_ASSIGN_OR_RETURN(forged, forge::run_forge(args.request));
    outcome.out = args.request.out_dir;
  }
  outcome.large = std::move(forged.large);
  // To s3:// the OpLog tail is written only where --oplog-export / --oplog-etcd say.
  const bool write_tail = !to_s3 || !args.oplog_export.empty() || !args.oplog_etcd.empty();
  if (!forged.oplog || !write_tail) return outcome;
  WrittenOpLog where;
  where.entries = forged.oplog->entries;
  where.keys = forged.oplog->kvs.size();
  where.export_path = args.oplog_export.empty() && !to_s3 ? args.request.out_dir + "/oplog.jsonl" : args.oplog_export;
  where.etcd = args.oplog_etcd;
  MQ_RETURN_IF_ERROR(write_forged_oplog(args, *forged.oplog, where));
  outcome.oplog = std::move(where);
  return outcome;
}

}  // namespace moonquota::app
