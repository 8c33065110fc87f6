#include "report/inspect/fingerprint_report.hpp"

#include "report/inspect/inspect_json.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

using util::Status;

Json fingerprint_json(const inspect::SnapshotFingerprint& fp) {
  Json j;
  j["schema"] = k_fingerprint_schema;
  put_bytes(j, "snapshot_id", fp.snapshot_id);
  j["fingerprint_id"] = fp.fingerprint_id;
  std::uint64_t features = 0;
  Json sections = Json::object();
  for (const auto& [section, shapes] : fp.shape.sections) {
    Json rows = Json::array();
    for (const auto& [feature, f] : shapes) {
      rows.push_back({{"feature", feature}, {"count", f.count}, {"first_seen", f.first_seen}, {"unknown", f.unknown}});
      ++features;
    }
    sections[section] = std::move(rows);
  }
  j["master_rejection"] = fp.master_rejection ? Json(*fp.master_rejection) : Json();
  j["features"] = features;
  j["unknown_features"] = fp.unknown_features;
  j["sections"] = std::move(sections);
  return j;
}

}  // namespace

void render_fingerprint(const inspect::SnapshotFingerprint& fp, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    write_inspect_json(fingerprint_json(fp), out);
    return;
  }
  std::uint64_t features = 0;
  for (const auto& [section, shapes] : fp.shape.sections) features += shapes.size();
  out << "snapshot " << util::printable(fp.snapshot_id) << " in " << util::printable(fp.snapshot_dir) << "\n";
  out << "fingerprint " << fp.fingerprint_id << " (" << features << " features, " << fp.unknown_features
      << " unknown to the format)\n";
  if (fp.master_rejection) {
    out << "master: decodes it but rejects it at restore: " << util::printable(*fp.master_rejection) << "\n";
  }
  for (const auto& [section, shapes] : fp.shape.sections) {
    out << "\n" << section << ":\n";
    util::TextTable t;
    t.add_column("count", util::TextTable::Align::right);
    t.add_column("feature", util::TextTable::Align::left);
    t.add_column("first seen", util::TextTable::Align::left);
    for (const auto& [feature, f] : shapes) {
      t.add_row({std::to_string(f.count), (f.unknown ? "UNKNOWN " : "") + feature, f.first_seen});
    }
    t.render(out);
  }
}

util::Result<inspect::SnapshotFingerprint> parse_fingerprint_json(const std::string& text, const std::string& name) {
  const Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::corruption(name + ": not a JSON object");
  if (!j.contains("schema") || j["schema"] != k_fingerprint_schema) {
    return Status::corruption(name + ": not a " + std::string(k_fingerprint_schema) + " document");
  }
  inspect::SnapshotFingerprint fp;
  if (j.contains("snapshot_id") && j["snapshot_id"].is_string()) fp.snapshot_id = j["snapshot_id"].get<std::string>();
  if (j.contains("fingerprint_id") && j["fingerprint_id"].is_string()) {
    fp.fingerprint_id = j["fingerprint_id"].get<std::string>();
  }
  if (!j.contains("sections") || !j["sections"].is_object())
    return Status::corruption(name + ": no \"sections\" object");
  for (const auto& [section, rows] : j["sections"].items()) {
    if (!rows.is_array()) return Status::corruption(name + ": section \"" + section + "\" is not an array");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      const std::string where = name + ": sections." + section + "[" + std::to_string(i) + "]";
      if (!row.is_object() || !row.contains("feature") || !row["feature"].is_string()) {
        return Status::corruption(where + " has no \"feature\" string");
      }
      const std::uint64_t count =
          row.contains("count") && row["count"].is_number_unsigned() ? row["count"].get<std::uint64_t>() : 0;
      const std::string first = row.contains("first_seen") && row["first_seen"].is_string()
                                    ? row["first_seen"].get<std::string>()
                                    : std::string();
      const bool unknown = row.contains("unknown") && row["unknown"].is_boolean() && row["unknown"].get<bool>();
      fp.shape.add(section, row["feature"].get<std::string>(), first, count, unknown);
      if (unknown) ++fp.unknown_features;
    }
  }
  return fp;
}

}  // namespace moonquota::report
