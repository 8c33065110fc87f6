#include "service/latest_snapshot.hpp"

#include "source/embedded_catalog.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::service {

namespace {

// latest.txt holds one snapshot id: anything larger is not a pointer.
constexpr std::uint64_t k_latest_pointer_limit = 4096;

}  // namespace

bool follows_latest(const restore::StoreSelection& selection) {
  return selection.snapshot_dir.empty() && selection.snapshot == "latest" && !selection.store_dir.empty();
}

util::Result<std::optional<std::string>> read_latest_snapshot_id(source::ObjectStore& store,
                                                                 const restore::StoreSelection& selection) {
  if (!follows_latest(selection)) return std::optional<std::string>();
  if (selection.catalog == "redis") {
    MQ_ASSIGN_OR_RETURN(source::CatalogListing listing, restore::read_catalog(store, selection));
    return listing.latest;
  }
  const std::string root = source::snapshot_root(selection.store_dir, selection.cluster_id);
  auto text = store.get(root + "latest.txt", k_latest_pointer_limit);
  if (!text.ok()) {
    if (text.status().code() == util::StatusCode::not_found) return std::optional<std::string>();
    return text.status();
  }
  std::string id = util::trim_ascii(*text);
  if (id.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(id));
}

}  // namespace moonquota::service
