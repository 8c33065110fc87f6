// Per-tenant drops of a restore (quota::DropTable) as JSON fields and as a text table, shared by
// quota-rebuild and quota-reconcile (docs/cli/quota-rebuild.md, "Per-tenant drops").
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "quota/tenant_drops.hpp"

namespace moonquota::report {

// {"non_complete": {"objects", "bytes"}, "lease_expired": {...}, then "undecodable": {"objects"}
// (restore path) or "size_zero" and "invalid_memory": {"objects"} (standby bootstrap)}.
[[nodiscard]] nlohmann::ordered_json tenant_drops_json(const quota::TenantDrops& drops, bool standby);

// The tenant's drops in `table` (zeros when it has none; charged_bytes_without_drops = charged_bytes).
[[nodiscard]] quota::TenantDrops drops_of(const quota::DropTable& table, const std::string& tenant,
                                          std::uint64_t charged_bytes);

// What the bytes columns of the drop table mean.
inline constexpr const char* k_drop_bytes_meaning =
    "bytes: what the dropped objects were charged, size x COMPLETE MEMORY replicas";

// The drop table as a title ("DROPPED BY THE RESTORE" or "... BY THE STANDBY BOOTSTRAP"), column
// names and one row of cells per tenant with a drop (ids printable), for every renderer.
struct DropTableCells {
  std::string title;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};
[[nodiscard]] DropTableCells drop_table_cells(const quota::DropTable& table);

// The title and one row per tenant with a drop as a text table; nothing when no tenant has one.
// Starts with an empty line.
void render_drop_table(const quota::DropTable& table, std::ostream& out);

}  // namespace moonquota::report
