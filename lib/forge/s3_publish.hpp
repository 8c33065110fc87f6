// snapshot-forge --out s3://BUCKET[/PREFIX] (docs/cli/snapshot-forge.md): the store is forged
// into a private temporary directory, then uploaded with the keys of the local layout below the
// prefix ("[PREFIX/]mooncake_master_snapshot/<cluster_id>/..."), in the order a master publishes:
// payload files (metadata, segments, task_manager, manifest.txt) first, then each
// descriptor.txt, latest.txt last, so a reader listing the bucket meanwhile never finds a
// snapshot that latest.txt names but whose files are missing. Each single PUT carries the file's
// x-amz-checksum-crc32c, as upstream uploads do; multipart uploads go without.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "forge/forge_run.hpp"
#include "source/writable_object_store.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

struct S3PublishSummary {
  std::uint64_t objects = 0;      // objects uploaded
  std::uint64_t bytes = 0;        // their bytes
  std::uint64_t checksummed = 0;  // of them, sent with x-amz-checksum-crc32c
};

// Creates the bucket unless it exists, then refuses (invalid_argument, as for a non-empty local
// directory) when objects exist below "<store_url>/mooncake_master_snapshot/" unless `force`.
// With `force` nothing is deleted: S3 has no directory to empty, the new keys overwrite theirs.
// Errors: as the store's (not_found, unavailable), invalid_argument for a bad URL.
[[nodiscard]] util::Status prepare_s3_destination(source::WritableObjectStore& store, const std::string& store_url,
                                                  bool force);

// Uploads every file below `local_dir` (a forged store's base directory) to the same relative
// keys below `store_url`, in publish order. Errors: io_error for a local file; the store's.
[[nodiscard]] util::Result<S3PublishSummary> publish_store_to_s3(source::WritableObjectStore& store,
                                                                 const std::string& local_dir,
                                                                 const std::string& store_url);

struct S3ForgeOutcome {
  ForgeOutcome forge;  // the scenario's OpLog tail, the --large summary
  S3PublishSummary upload;
};

// run_forge into a temporary directory (mkdtemp under $TMPDIR, else /tmp; removed on every path
// out, success, error or exception, and by a SIGINT/SIGTERM/SIGHUP whose action is the default
// one: a handler is installed while the directory exists), then prepare_s3_destination (before forging, so a refusal
// costs nothing) and publish_store_to_s3. `request.out_dir` is the resolved s3:// URL; a
// synthetic OpLog alone (request.oplog) has no store to upload: invalid_argument.
[[nodiscard]] util::Result<S3ForgeOutcome> run_forge_to_s3(const ForgeRequest& request,
                                                           source::WritableObjectStore& store);

}  // namespace moonquota::forge
