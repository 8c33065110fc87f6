// snapshot-forge's command: a store forged from a scenario (or a synthetic one) into a local
// directory or uploaded to s3://, then the OpLog tail it describes written as an export file and/or
// into etcd. The outcome says what was written, for the tool's one-line summaries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/s3_settings.hpp"
#include "forge/forge_run.hpp"
#include "forge/s3_publish.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct ForgeArgs {
  forge::ForgeRequest request;  // out_dir: a directory or s3://BUCKET[/PREFIX]
  std::string oplog_export;     // --oplog-export FILE (default <out>/oplog.jsonl; none for s3://)
  std::string oplog_etcd;       // --oplog-etcd HOST:PORT
  S3Args s3;
  util::NetLog log;  // the caller's log: S3 attempts, and each OpLog write at info (may be empty)
};

struct WrittenOpLog {
  std::uint64_t entries = 0;
  std::uint64_t keys = 0;
  std::string export_path;  // "" when none was written
  std::string etcd;         // "" when none was written
};

struct ForgeCommandOutcome {
  std::string out;  // where the store went (an s3:// URL with its bucket resolved)
  std::optional<forge::LargeStoreSummary> large;
  std::optional<forge::S3PublishSummary> upload;  // --out s3://
  std::optional<WrittenOpLog> oplog;
};

// Errors: invalid_argument (--oplog-large to s3://, an S3 flag that does not parse), those of
// forge::run_forge / run_forge_to_s3 (a failed store write leaves no partial store behind) and of
// writing the OpLog.
[[nodiscard]] util::Result<ForgeCommandOutcome> run_forge_command(const ForgeArgs& args);

}  // namespace moonquota::app
