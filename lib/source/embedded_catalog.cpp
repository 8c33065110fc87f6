#include "source/embedded_catalog.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "format/descriptor.hpp"
#include "source/object_store.hpp"
#include "source/s3_url.hpp"
#include "source/snapshot_id.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::source {

using util::trim_ascii;

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t k_small_file_limit = 1 << 20;

}  // namespace

util::Result<std::set<std::string>> cluster_ids_in_store(ObjectStore& store, const std::string& store_dir) {
  const std::string parent = snapshot_root(store_dir, "");  // ".../mooncake_master_snapshot/"
  MQ_ASSIGN_OR_RETURN(auto keys, store.list(parent));
  std::set<std::string> clusters;
  for (const auto& key : keys) {
    const std::string rest = key.substr(parent.size());
    if (const auto slash = rest.find('/'); slash != std::string::npos && slash > 0) {
      clusters.insert(rest.substr(0, slash));
    }
  }
  return clusters;
}

std::string snapshot_root(const std::string& store_dir, const std::string& cluster_id) {
  std::string root = join_key(store_dir, "mooncake_master_snapshot") + "/";
  if (!cluster_id.empty()) root += cluster_id + "/";
  return root;
}

std::string doubled_root_hint(const std::string& store_dir) {
  constexpr std::string_view k_root = "mooncake_master_snapshot";
  std::string dir = store_dir;
  while (!dir.empty() && dir.back() == '/') dir.pop_back();
  // The last "/mooncake_master_snapshot" component, or the whole path being it.
  std::size_t at = std::string::npos;
  for (std::size_t from = 0;;) {
    const auto found = dir.find(k_root, from);
    if (found == std::string::npos) break;
    const std::size_t end = found + k_root.size();
    if ((found == 0 || dir[found - 1] == '/') && (end == dir.size() || dir[end] == '/')) at = found;
    from = found + 1;
  }
  if (at == std::string::npos || (is_s3_url(dir) && at <= k_s3_scheme.size())) return {};  // a bucket of that name
  std::string parent = dir.substr(0, at);
  while (parent.size() > 1 && parent.back() == '/') parent.pop_back();
  if (parent.empty()) parent = ".";
  const std::string rest = dir.substr(std::min(dir.size(), at + k_root.size() + 1));
  const std::string cluster = rest.substr(0, rest.find('/'));
  return "; --store names the folder that holds mooncake_master_snapshot/: try --store '" + util::printable(parent) +
         "'" + (cluster.empty() ? "" : " --cluster-id '" + util::printable(cluster) + "'");
}

SnapshotDirectory locate_snapshot_directory(const std::string& snapshot_dir) {
  if (is_s3_url(snapshot_dir)) {  // a URL: no path normalization (it would fold "s3://")
    std::string dir = snapshot_dir;
    while (dir.size() > k_s3_scheme.size() && dir.back() == '/') dir.pop_back();
    const auto slash = dir.rfind('/');
    return {dir, dir.substr(slash + 1), dir.substr(0, slash + 1)};
  }
  fs::path dir = fs::path(snapshot_dir).lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  return {dir.string(), dir.filename().string(), dir.parent_path().string() + "/"};
}

util::Result<model::SnapshotDescriptor> read_descriptor(ObjectStore& store, const std::string& snapshot_dir) {
  auto text = store.get(join_key(snapshot_dir, "descriptor.txt"), k_small_file_limit);
  if (!text.ok()) return text.status();
  return format::parse_descriptor(*text);
}

namespace {

// "; the store holds cluster ids: a, b" when a wrong --cluster-id is the likely mistake; empty
// when the store holds no snapshot root at all (or cannot be listed).
std::string clusters_present(ObjectStore& store, const std::string& store_dir) {
  auto found = cluster_ids_in_store(store, store_dir);
  if (!found.ok() || found->empty()) return {};
  const std::set<std::string>& clusters = *found;
  std::string list;
  for (const auto& c : clusters) list += (list.empty() ? "" : ", ") + util::printable(c);
  return std::string("; the store holds cluster id") + (clusters.size() == 1 ? "" : "s") + ": " + list;
}

}  // namespace

util::Result<CatalogListing> read_embedded_catalog(ObjectStore& store, const std::string& store_dir,
                                                   const std::string& cluster_id) {
  CatalogListing out;
  out.root = snapshot_root(store_dir, cluster_id);
  auto keys = store.list(out.root);
  if (!keys.ok()) {
    if (keys.status().code() == util::StatusCode::not_found) {
      // A missing bucket says so; otherwise the wording of a missing local directory.
      const std::string& why = keys.status().message();
      const auto bucket = why.find("no bucket '");
      return util::Status::not_found("no snapshot root '" + out.root + "' (check --store and --cluster-id" +
                                     (bucket != std::string::npos
                                          ? "; " + why.substr(bucket)
                                          : doubled_root_hint(store_dir) + clusters_present(store, store_dir)) +
                                     ")");
    }
    return keys.status();
  }
  // The directories right under the root that hold at least one object (at any depth).
  std::set<std::string> dirs;
  for (const auto& key : *keys) {
    const std::string rest = key.substr(out.root.size());
    if (const auto slash = rest.find('/'); slash != std::string::npos) dirs.insert(rest.substr(0, slash));
  }
  std::vector<std::string> ids;
  for (const auto& name : dirs) {
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
    if (!is_calendar_valid_snapshot_id(name)) {
      out.findings.push_back({model::Severity::warning, out.root + name, "snapshot id is not a real calendar instant"});
    }
    auto descriptor = read_descriptor(store, out.root + name);
    if (!descriptor.ok() && descriptor.status().code() == util::StatusCode::unavailable) return descriptor.status();
    if (!descriptor.ok()) {
      out.findings.push_back(
          {model::Severity::warning, out.root + name,
           descriptor.status().code() == util::StatusCode::not_found
               ? "unpublished snapshot (no descriptor.txt): never restored"
               : "descriptor.txt does not parse (" + descriptor.status().message() + "): never listed"});
      continue;
    }
    ids.push_back(name);
  }
  std::sort(ids.begin(), ids.end(), std::greater<>());
  std::sort(out.findings.begin(), out.findings.end(),
            [](const model::Finding& a, const model::Finding& b) { return a.location < b.location; });
  out.listed = std::move(ids);

  auto latest = store.get(out.root + "latest.txt", k_small_file_limit);
  if (!latest.ok() && latest.status().code() == util::StatusCode::unavailable) return latest.status();
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
  auto descriptor = read_descriptor(store, out.root + id);
  if (!descriptor.ok() && descriptor.status().code() == util::StatusCode::unavailable) return descriptor.status();
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
