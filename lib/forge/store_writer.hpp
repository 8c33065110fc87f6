// Writes a forged scenario as a snapshot store in Mooncake's exact layout (snapshot-format.md §2):
//   <out>/mooncake_master_snapshot/<cluster_id>/latest.txt          (when a snapshot is latest)
//   <out>/mooncake_master_snapshot/<cluster_id>/<id>/{metadata, segments, task_manager,
//                                                     manifest.txt, descriptor.txt}
// The <cluster_id>/ level is absent when cluster_id is "". Text files carry no trailing newline;
// no file is ever empty (the local backend refuses empty uploads). Files are written atomically,
// in the master's order: metadata, segments, task_manager, manifest, descriptor, then latest.
#pragma once

#include <string>

#include "forge/scenario.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

struct StoreWriteOptions {
  // Replace an existing <out>/mooncake_master_snapshot tree. Without it, an output directory that
  // exists and is not empty is refused (invalid_argument).
  bool force = false;
};

// "mooncake_master_snapshot/<cluster_id>/" or "mooncake_master_snapshot/" for an empty cluster.
[[nodiscard]] std::string snapshot_root_relative(const std::string& cluster_id);

// Checks (and with `force` clears) the output directory, then creates it.
[[nodiscard]] util::Status prepare_output_directory(const std::string& out_dir, const StoreWriteOptions& options);

// Created right before prepare_output_directory: unless dismissed, its destructor removes what a
// failed (or unwinding) write left: <out>/mooncake_master_snapshot with any temporary files in it,
// and <out> itself when it did not exist before and is empty. So a failure never leaves a partial
// store that makes the next run refuse the directory.
class PartialStoreGuard {
 public:
  explicit PartialStoreGuard(std::string out_dir);
  ~PartialStoreGuard();
  PartialStoreGuard(const PartialStoreGuard&) = delete;
  PartialStoreGuard& operator=(const PartialStoreGuard&) = delete;
  void dismiss() { m_dismissed = true; }

 private:
  std::string m_out_dir;
  bool m_out_dir_existed = true;
  bool m_dismissed = false;
};

// The text files of one snapshot.
[[nodiscard]] std::string manifest_text(const ForgedSnapshot& snapshot);
[[nodiscard]] std::string descriptor_text(const model::SnapshotDescriptor& descriptor);

// Writes `data` to `path` atomically; refuses empty content.
[[nodiscard]] util::Status write_store_file(const std::string& path, std::string_view data);

// Encodes and writes every snapshot of `scenario` under `out_dir`; a failure leaves no partial store.
[[nodiscard]] util::Status write_store(const Scenario& scenario, const std::string& out_dir,
                                       const StoreWriteOptions& options);

}  // namespace moonquota::forge
