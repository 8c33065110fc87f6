// `top`: the largest objects by size or charge, and the largest tenants by logical size or restored
// charge.
#include <algorithm>
#include <utility>
#include <vector>

#include "report/inspect/inspect_summary_parts.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

void render_top_objects(const InspectContext& ctx, const inspect::StatsScan& scan, inspect::RankBy by,
                        OutputFormat format, std::ostream& out) {
  const auto ranked = scan.stats.top_objects.sorted();
  const char* by_name = by == inspect::RankBy::size ? "size" : "charge";
  if (format == OutputFormat::ndjson) {
    for (const auto& o : ranked) out << dump_inspect_json(inspect_ranked_json(o), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-top/1");
    j["what"] = "objects";
    j["by"] = by_name;
    Json rows = Json::array();
    for (const auto& o : ranked) rows.push_back(inspect_ranked_json(o));
    j["objects"] = std::move(rows);
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\nlargest objects by " << by_name << ":\n";
  util::TextTable t;
  for (const char* h : {"rank", "size", "charge_bytes", "replicas", "shard"}) t.add_column(h, k_inspect_right);
  t.add_column("tenant", k_inspect_left);
  t.add_column("key", k_inspect_left);
  std::size_t rank = 0;
  for (const auto& o : ranked) {
    t.add_row({inspect_num(++rank), inspect_num(o.size), inspect_num(o.charge_bytes), inspect_num(o.replicas),
               inspect_num(o.shard), util::printable(o.tenant_id), util::printable(o.key)});
  }
  t.render(out);
}

void render_top_tenants(const InspectContext& ctx, const inspect::StatsScan& scan, inspect::RankBy by, std::size_t n,
                        OutputFormat format, std::ostream& out) {
  std::vector<Json> rows;
  for (const auto& row : inspect_tenant_rows(scan)) {
    Json t = inspect_tenant_json(row);
    t.erase("biggest_objects");
    rows.push_back(std::move(t));
  }
  const char* field = by == inspect::RankBy::size ? "logical_bytes" : "charged_bytes";
  std::stable_sort(rows.begin(), rows.end(), [&](const Json& a, const Json& b) {
    return a[field].get<std::uint64_t>() > b[field].get<std::uint64_t>();
  });
  if (rows.size() > n) rows.resize(n);
  if (format == OutputFormat::ndjson) {
    for (const auto& r : rows) out << dump_inspect_json(r, -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-top/1");
    j["what"] = "tenants";
    j["by"] = by == inspect::RankBy::size ? "size" : "charge";
    j["tenants"] = rows;
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\nlargest tenants by " << (by == inspect::RankBy::size ? "logical size" : "restored charge") << ":\n";
  util::TextTable t;
  t.add_column("rank", k_inspect_right);
  t.add_column("tenant", k_inspect_left);
  for (const char* h : {"objects", "logical_bytes", "memory_bytes", "charged_bytes"}) t.add_column(h, k_inspect_right);
  std::size_t rank = 0;
  for (const auto& r : rows) {
    t.add_row({inspect_num(++rank), util::printable(r["tenant_id"].get<std::string>()), inspect_num(r["objects"]),
               inspect_num(r["logical_bytes"]), inspect_num(r["memory_bytes"]), inspect_num(r["charged_bytes"])});
  }
  t.render(out);
}

}  // namespace moonquota::report
