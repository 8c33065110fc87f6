#include "report/explain_report.hpp"

#include <array>
#include <utility>

#include "report/inspect/inspect_json.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

struct Part {
  const char* field;  // JSON member
  const char* title;  // text
  const char* bytes;  // what its bytes are
  const restore::ExplainCategory& category;
};

std::array<Part, 4> parts_of(const restore::TenantExplanation& e) {
  return {Part{"charged", "charged (kept)", "size x COMPLETE MEMORY replicas: the expected charge", e.charged},
          Part{"in_flight", "in flight", "size x PROCESSING MEMORY replicas: writes not yet committed", e.in_flight},
          Part{"dropped_non_complete", "dropped, a replica not COMPLETE", "the charge the restore erases with them",
               e.dropped_non_complete},
          Part{"dropped_lease_expired", "dropped, lease ended", "the charge the restore erases with them",
               e.dropped_lease_expired}};
}

ordered_json bytes_field(const std::string& bytes) {
  return util::is_valid_utf8(bytes) ? ordered_json(bytes) : ordered_json(util::printable(bytes));
}

std::string instant(std::uint64_t ms) {
  return ms == 0 ? std::string("-") : util::utc_iso8601(static_cast<std::int64_t>(ms));
}

}  // namespace

ordered_json explain_json(const restore::TenantExplanation& e, const std::string& model) {
  ordered_json j;
  j["tenant_id"] = bytes_field(e.tenant_id);
  j["model"] = model;
  j["top"] = e.top;
  for (const Part& part : parts_of(e)) {
    ordered_json largest = ordered_json::array();
    for (const auto& o : part.category.largest) {
      largest.push_back(
          {{"key", bytes_field(o.key)},
           {"shard", o.shard},
           {"size", o.size},
           {"memory_replicas",
            {{"complete", o.complete_memory}, {"processing", o.processing_memory}, {"removed", o.removed_memory}}},
           {"all_complete", o.all_complete},
           {"lease_timeout_ms", o.lease_timeout_ms},
           {"put_start_time_ms", o.put_start_time_ms},
           {"bytes", o.bytes}});
    }
    j[part.field] = {
        {"objects", part.category.objects}, {"bytes", saturate(part.category.bytes)}, {"largest", largest}};
  }
  j["undecodable"] = e.undecodable;
  return j;
}

void render_explain_text(const restore::TenantExplanation& e, const std::string& model, std::ostream& out,
                         const std::string& after_totals) {
  out << "\nEXPLAIN '" << util::printable(e.tenant_id) << "' (" << model << ")\n";
  const auto parts = parts_of(e);
  for (const Part& part : parts) {
    if (!e.restore_model && &part.category != &e.charged && &part.category != &e.in_flight) continue;
    out << "  " << part.title << ": " << part.category.objects << " object" << (part.category.objects == 1 ? "" : "s")
        << ", " << saturate(part.category.bytes) << " bytes (" << part.bytes << ")\n";
  }
  if (e.undecodable > 0) out << "  undecodable entries: " << e.undecodable << " (no size known)\n";
  out << after_totals;
  for (const Part& part : parts) {
    if (part.category.largest.empty()) continue;
    out << "\n" << part.title << ", the " << part.category.largest.size() << " largest:\n";
    util::TextTable table;
    table.add_column("bytes", util::TextTable::Align::right);
    table.add_column("size", util::TextTable::Align::right);
    table.add_column("MEMORY C/P/R", util::TextTable::Align::right);
    table.add_column("lease until (UTC)", util::TextTable::Align::left);
    table.add_column("put start (UTC)", util::TextTable::Align::left);
    table.add_column("shard", util::TextTable::Align::right);
    table.add_column("key", util::TextTable::Align::left);
    for (const auto& o : part.category.largest) {
      table.add_row({std::to_string(o.bytes), std::to_string(o.size),
                     std::to_string(o.complete_memory) + "/" + std::to_string(o.processing_memory) + "/" +
                         std::to_string(o.removed_memory) + (o.all_complete ? "" : " *"),
                     instant(o.lease_timeout_ms), instant(o.put_start_time_ms), std::to_string(o.shard),
                     util::printable(o.key)});
    }
    table.render(out);
  }
  if (!e.charged.largest.empty() || !e.in_flight.largest.empty()) {
    out << "(MEMORY C/P/R: COMPLETE, PROCESSING and REMOVED MEMORY replicas; * a replica of any type not COMPLETE)\n";
  }
}

}  // namespace moonquota::report
