// The text block every snapshot-inspect text report starts with: the snapshot, its descriptor, age
// and manifest, and the master's verdict.
#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

void render_header_text(const InspectContext& ctx, const restore::ScannedSnapshot& snap, std::ostream& out) {
  const auto& sel = ctx.selected;
  out << "snapshot:    " << sel.snapshot_id << " (" << sel.snapshot_dir << ")"
      << (sel.from_catalog_latest ? ", the master's first candidate" : "") << "\n";
  if (snap.descriptor) {
    out << "descriptor:  last_included_seq " << snap.descriptor->last_included_seq << ", producer_view_version "
        << snap.descriptor->producer_view_version << ", created_at_ms " << snap.descriptor->created_at_ms << "\n";
    const std::int64_t created = snap.descriptor->created_at_ms;
    out << "created:     " << util::utc_iso8601(created) << ", age at restore "
        << util::hms_text(util::span_ms(restore_time_as_i64(ctx.restore_time_ms), created)) << " (restore time "
        << ctx.restore_time_ms << " ms)\n";
  } else {
    out << "descriptor:  none (" << snap.descriptor_error << ")\n";
  }
  out << "manifest:    " << util::printable(snap.manifest) << "\n";
  if (ctx.verdict_applies) render_master_text(ctx.verdict, out);
}

void render_master_text(const inspect::MasterVerdict& v, std::ostream& out) {
  if (v.restores_inspected && !v.metadata_checked) {
    out << "master:      not checked yet: no rejection in manifest, segments or task_manager; the metadata shards "
           "are checked while they are listed (one the master rejects stops the listing, exit 3)\n";
  } else if (v.restores_inspected) {
    out << "master:      restores this snapshot\n";
  } else {
    out << "master:      REJECTS this snapshot: " << v.rejection << "\n";
    for (const auto& a : v.fallback) {
      out << "             then " << a.snapshot_id << ": " << (a.restored ? "restored" : "rejected: " + a.reason)
          << "\n";
    }
    out << "             "
        << (v.restored_id ? "=> the master restores " + *v.restored_id : std::string("=> the master starts EMPTY"))
        << "\n";
  }
}

}  // namespace moonquota::report
