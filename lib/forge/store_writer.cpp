#include "forge/store_writer.hpp"

#include <filesystem>
#include <system_error>
#include <utility>

#include "format/metadata_encoder.hpp"
#include "format/segments_encoder.hpp"
#include "format/task_manager_encoder.hpp"
#include "util/atomic_file.hpp"

namespace moonquota::forge {

namespace fs = std::filesystem;

std::string snapshot_root_relative(const std::string& cluster_id) {
  std::string root = "mooncake_master_snapshot/";
  if (!cluster_id.empty()) root += cluster_id + "/";
  return root;
}

util::Status prepare_output_directory(const std::string& out_dir, const StoreWriteOptions& options) {
  std::error_code ec;
  const fs::path out(out_dir);
  if (fs::exists(out, ec)) {
    if (!fs::is_directory(out, ec))
      return util::Status::invalid_argument("output '" + out_dir + "' is not a directory");
    const bool empty = fs::is_empty(out, ec);
    if (ec) return util::Status::io_error("cannot list '" + out_dir + "': " + ec.message());
    if (!empty && !options.force) {
      return util::Status::invalid_argument("output directory '" + out_dir +
                                            "' is not empty (use --force to replace its snapshot store)");
    }
    if (!empty) {
      fs::remove_all(out / "mooncake_master_snapshot", ec);
      if (ec) return util::Status::io_error("cannot clear '" + out_dir + "/mooncake_master_snapshot': " + ec.message());
    }
  }
  fs::create_directories(out, ec);
  if (ec) return util::Status::io_error("cannot create '" + out_dir + "': " + ec.message());
  return util::Status::ok_status();
}

PartialStoreGuard::PartialStoreGuard(std::string out_dir) : m_out_dir(std::move(out_dir)) {
  std::error_code ec;
  m_out_dir_existed = fs::exists(m_out_dir, ec) || ec;
}

PartialStoreGuard::~PartialStoreGuard() {
  if (m_dismissed) return;
  std::error_code ec;  // best effort: the write's own error is what the caller reports
  fs::remove_all(fs::path(m_out_dir) / "mooncake_master_snapshot", ec);
  if (!m_out_dir_existed) fs::remove(m_out_dir, ec);  // only when empty
}

std::string manifest_text(const ForgedSnapshot& snapshot) {
  return snapshot.manifest_text.value_or("messagepack|1.0.0|" + snapshot.id);
}

std::string descriptor_text(const model::SnapshotDescriptor& d) {
  return std::to_string(d.last_included_seq) + "|" + std::to_string(d.producer_view_version) + "|" +
         std::to_string(d.created_at_ms);
}

util::Status write_store_file(const std::string& path, std::string_view data) {
  if (data.empty()) return util::Status::internal("refusing to write an empty object '" + path + "'");
  return util::write_file_atomically(path, data);
}

namespace {

util::Status write_snapshot(const ForgedSnapshot& snap, const fs::path& root) {
  const fs::path dir = root / snap.id;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return util::Status::io_error("cannot create '" + dir.string() + "': " + ec.message());
  MQ_ASSIGN_OR_RETURN(std::string metadata, format::encode_metadata(snap.metadata));
  MQ_ASSIGN_OR_RETURN(std::string segments, format::encode_segments(snap.segments));
  MQ_ASSIGN_OR_RETURN(std::string tasks, format::encode_task_manager(snap.tasks));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "metadata").string(), metadata));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "segments").string(), segments));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "task_manager").string(), tasks));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "manifest.txt").string(), manifest_text(snap)));
  if (snap.published) {
    MQ_RETURN_IF_ERROR(write_store_file((dir / "descriptor.txt").string(), descriptor_text(snap.descriptor)));
  }
  return util::Status::ok_status();
}

}  // namespace

util::Status write_store(const Scenario& scenario, const std::string& out_dir, const StoreWriteOptions& options) {
  PartialStoreGuard guard(out_dir);
  if (auto s = prepare_output_directory(out_dir, options); !s.ok()) {
    guard.dismiss();  // refused or not cleared: nothing of ours to remove
    return s;
  }
  const fs::path root = fs::path(out_dir) / snapshot_root_relative(scenario.cluster_id);
  const ForgedSnapshot* latest = nullptr;
  for (const ForgedSnapshot& snap : scenario.snapshots) {
    MQ_RETURN_IF_ERROR(write_snapshot(snap, root).with_context("snapshot " + snap.id));
    if (snap.latest) latest = &snap;
  }
  if (latest != nullptr) MQ_RETURN_IF_ERROR(write_store_file((root / "latest.txt").string(), latest->id));
  guard.dismiss();
  return util::Status::ok_status();
}

}  // namespace moonquota::forge
