#include "source/embedded_catalog.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "format/descriptor.hpp"
#include "source/snapshot_id.hpp"
#include "util/file_reader.hpp"

namespace moonquota::source {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t k_small_file_limit = 1 << 20;

bool holds_any_file(const fs::path& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) return true;
  }
  return false;
}

std::string trim_ascii(const std::string& s) {
  const char* ws = " \t\n\r\f\v";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

}  // namespace

std::string snapshot_root(const std::string& store_dir, const std::string& cluster_id) {
  std::string root = (fs::path(store_dir) / "mooncake_master_snapshot").string() + "/";
  if (!cluster_id.empty()) root += cluster_id + "/";
  return root;
}

util::Result<model::SnapshotDescriptor> read_descriptor(const std::string& snapshot_dir) {
  auto text = util::read_small_file((fs::path(snapshot_dir) / "descriptor.txt").string(), k_small_file_limit);
  if (!text.ok()) return text.status();
  return format::parse_descriptor(*text);
}

util::Result<CatalogListing> read_embedded_catalog(const std::string& store_dir, const std::string& cluster_id) {
  CatalogListing out;
  out.root = snapshot_root(store_dir, cluster_id);
  std::error_code ec;
  if (!fs::is_directory(out.root, ec)) {
    return util::Status::not_found("no snapshot root '" + out.root + "' (check --store and --cluster-id)");
  }
  std::vector<std::string> ids;
  for (fs::directory_iterator it(out.root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_directory(ec)) continue;
    if (!is_valid_snapshot_id(name)) {
      if (name != "batch-oplog") {
        out.findings.push_back({model::Severity::warning, out.root + name,
                                "directory name is not a valid snapshot id: invisible to the catalog"});
      } else {
        out.findings.push_back({model::Severity::info, out.root + name,
                                "batch-oplog materialized snapshot present (not a master snapshot; ignored)"});
      }
      continue;
    }
    if (!holds_any_file(it->path())) continue;
    if (!is_calendar_valid_snapshot_id(name)) {
      out.findings.push_back({model::Severity::warning, out.root + name, "snapshot id is not a real calendar instant"});
    }
    auto descriptor = read_descriptor(it->path().string());
    if (!descriptor.ok()) {
      out.findings.push_back({model::Severity::warning, out.root + name,
                              descriptor.status().code() == util::StatusCode::not_found
                                  ? "unpublished snapshot (no descriptor.txt): never restored"
                                  : "descriptor.txt does not parse (" + descriptor.status().message() +
                                        "): never listed"});
      continue;
    }
    ids.push_back(name);
  }
  if (ec) return util::Status::io_error("cannot list '" + out.root + "': " + ec.message());
  std::sort(ids.begin(), ids.end(), std::greater<>());
  std::sort(out.findings.begin(), out.findings.end(), [](const model::Finding& a, const model::Finding& b) {
    return a.location < b.location;
  });
  out.listed = std::move(ids);

  auto latest = util::read_small_file(out.root + "latest.txt", k_small_file_limit);
  if (!latest.ok()) {
    if (latest.status().code() != util::StatusCode::not_found) out.latest_error = latest.status().message();
    return out;
  }
  std::string id = trim_ascii(*latest);
  if (id.empty()) return out;
  if (!is_valid_snapshot_id(id)) {
    out.latest_error = "latest.txt names '" + id + "', not a valid snapshot id";
    return out;
  }
  auto descriptor = read_descriptor(out.root + id);
  if (!descriptor.ok()) {
    out.latest_error = "latest snapshot " + id + ": " + descriptor.status().message();
    return out;
  }
  out.latest = id;
  return out;
}

std::vector<std::string> restore_candidates(const CatalogListing& listing) {
  std::vector<std::string> out;
  if (!listing.latest) return listing.listed;
  out.push_back(*listing.latest);
  for (const auto& id : listing.listed) {
    if (id <= *listing.latest && id != *listing.latest) out.push_back(id);
  }
  return out;
}

}  // namespace moonquota::source
