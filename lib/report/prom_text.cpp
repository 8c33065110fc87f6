#include "report/prom_text.hpp"

#include "reconcile/prometheus_text.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

// `labels`: `name="escaped",` pairs, each followed by a comma, or "".
void run_sample(std::ostream& out, std::string_view prefix, std::string_view name, const std::string& labels,
                const std::string& cluster, const std::string& value) {
  out << prefix << name << "{" << labels << "cluster=\"" << reconcile::label_value(cluster) << "\"} " << value << "\n";
}

std::string readable_message(const std::string& message) {
  std::string readable = message;
  if (!util::is_valid_utf8(readable)) {
    for (char& c : readable) {
      if (static_cast<unsigned char>(c) >= 0x80) c = '?';
    }
  }
  return readable;
}

}  // namespace

void gauge_family(std::ostream& out, std::string_view prefix, std::string_view name, std::string_view help) {
  out << "# HELP " << prefix << name << " " << help << "\n# TYPE " << prefix << name << " gauge\n";
}

std::string prom_seconds(std::int64_t ms) {
  const bool negative = ms < 0;
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ms) : static_cast<std::uint64_t>(ms);
  std::string fraction = std::to_string(magnitude % 1000);
  fraction.insert(0, 3 - fraction.size(), '0');
  return (negative ? "-" : "") + std::to_string(magnitude / 1000) + "." + fraction;
}

void run_facts(std::ostream& out, std::string_view prefix, const RunFacts& run, const std::string& cluster) {
  const std::string at = prom_seconds(static_cast<std::int64_t>(run.run_at_ms));
  const std::string code = std::to_string(run.exit_code);
  const std::string message = run.success ? std::string() : reconcile::label_value(readable_message(run.error));
  gauge_family(out, prefix, "last_run_timestamp_seconds", "When the newest run ran (Unix seconds)");
  run_sample(out, prefix, "last_run_timestamp_seconds", "", cluster, at);
  gauge_family(out, prefix, "last_run_success",
               std::string("1 when the newest run ") + std::string(run.what) + ", 0 when it failed");
  run_sample(out, prefix, "last_run_success", "", cluster, run.success ? "1" : "0");
  gauge_family(out, prefix, "last_run_exit_code", "The exit code of the newest run (docs/cli/README.md)");
  run_sample(out, prefix, "last_run_exit_code", "", cluster, code);
  if (run.success) {
    gauge_family(out, prefix, "last_success_timestamp_seconds",
                 "When the newest successful run ran (Unix seconds; a failed run's textfile has none)");
    run_sample(out, prefix, "last_success_timestamp_seconds", "", cluster, at);
  } else {
    gauge_family(out, prefix, "last_error_info", "The error of the newest run while it failed (the value is always 1)");
    run_sample(out, prefix, "last_error_info", "exit_code=\"" + code + "\",message=\"" + message + "\",", cluster, "1");
  }
  gauge_family(out, prefix, "run_success", "Deprecated: last_run_success under its earlier name (one more release)");
  run_sample(out, prefix, "run_success", "", cluster, run.success ? "1" : "0");
  gauge_family(out, prefix, "exit_code", "Deprecated: last_run_exit_code under its earlier name (one more release)");
  run_sample(out, prefix, "exit_code", "", cluster, code);
  if (!run.success) {
    gauge_family(out, prefix, "error", "Deprecated: last_error_info under its earlier name (one more release)");
    run_sample(out, prefix, "error", "message=\"" + message + "\",", cluster, "1");
  }
}

}  // namespace moonquota::report
