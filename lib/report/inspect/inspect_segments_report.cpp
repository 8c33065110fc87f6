// `segments`: the mounted segments (with the client that mounted each), allocator names, local-disk
// clients.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "report/inspect/inspect_summary_parts.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

void render_segments(const InspectContext& ctx, const restore::ScannedSnapshot& snap, OutputFormat format,
                     std::ostream& out) {
  std::vector<const model::MountedSegment*> segs;
  for (const auto& s : snap.segments.mounted) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* b) { return a->map_key < b->map_key; });
  std::map<std::string, std::string> client_of;
  for (const auto& [client, ids] : snap.segments.client_segments) {
    for (const auto& id : ids) client_of.emplace(id, client);
  }
  auto seg_json = [&](const model::MountedSegment& s) {
    Json j = segment_json(s, false);
    j["client_id"] = client_of.count(s.map_key) ? Json(client_of[s.map_key]) : Json(nullptr);
    return j;
  };
  if (format == OutputFormat::ndjson) {
    for (const auto* s : segs) out << dump_inspect_json(seg_json(*s), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, snap, "snapshot-inspect-segments/1");
    Json rows = Json::array();
    for (const auto* s : segs) rows.push_back(seg_json(*s));
    j["segments"] = std::move(rows);
    j["allocator_names"] = snap.segments.allocator_names;
    j["ok_capacity_bytes"] = inspect::ok_capacity_bytes(snap.segments);
    j["local_disk_clients"] = snap.segments.local_disk.size();
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\nsegments (" << segs.size() << ", OK capacity " << inspect::ok_capacity_bytes(snap.segments) << " bytes):\n";
  util::TextTable t;
  for (const char* h : {"id", "name", "status", "client"}) t.add_column(h, k_inspect_left);
  for (const char* h : {"base", "size", "cur_size", "allocated_num"}) t.add_column(h, k_inspect_right);
  t.add_column("endpoint", k_inspect_left);
  for (const auto* s : segs) {
    const bool a = s->allocator.has_value();
    t.add_row({util::printable(s->map_key), util::printable(s->name), model::segment_status::name(s->status),
               client_of.count(s->map_key) ? util::printable(client_of[s->map_key]) : "-", inspect_num(s->base),
               inspect_num(s->size), a ? inspect_num(s->allocator->cur_size) : "-",
               a ? inspect_num(s->allocator->offset.allocated_num) : "-", util::printable(s->te_endpoint)});
  }
  t.render(out);
  out << "allocator names (\"an\"):";
  for (const auto& n : snap.segments.allocator_names) out << " " << util::printable(n);
  out << "\nlocal-disk clients (\"ld\"): " << snap.segments.local_disk.size() << "\n";
}

}  // namespace moonquota::report
