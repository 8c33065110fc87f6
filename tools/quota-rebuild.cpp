// quota-rebuild: the account table a Mooncake master serves after restoring a snapshot store.
#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>
#include <sstream>

#include "quota/rebuild.hpp"
#include "rebuild_flags.hpp"
#include "report/rebuild/rebuild_prom.hpp"
#include "report/rebuild/rebuild_report.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;
using mq::tools::k_exit_found;
using mq::tools::k_exit_ok;

namespace {

constexpr const char* k_tool = "quota-rebuild";

std::uint64_t now_ms() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// The cluster label of --format prom: --cluster, else an explicitly given --cluster-id, else
// "default" (as quota-reconcile's, so the two tools' series of one cell join).
std::string cluster_label(const CLI::App& app) {
  if (auto cluster = mq::tools::parsed_value(app, "--cluster"); cluster && !cluster->empty()) return *cluster;
  if (auto id = mq::tools::parsed_value(app, "--cluster-id"); id && !id->empty()) return *id;
  return "default";
}

// With --format prom, a textfile that says the check failed (exits 2-5), so the alert on a
// failing check fires instead of the last good file staying in place.
void write_prom_failure(const mq::tools::CommonFlags& common, const std::string& cluster, int rc,
                        const std::string& message) {
  if (common.format != "prom") return;
  std::ostringstream text;
  mq::report::render_rebuild_prom_failure(cluster, now_ms(), rc, message, text);
  (void)mq::tools::emit_report(common, text.str());
}

int report_failure(const mq::tools::CommonFlags& common, const std::string& cluster, const mq::util::Status& status) {
  const int rc = mq::tools::fail(k_tool, status);
  write_prom_failure(common, cluster, rc, status.message());
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Predict the tenant quota account table a Mooncake master serves after restoring a snapshot store "
      "or after a hot-standby promotion (snapshot + OpLog tail)"};
  mq::tools::setup_app(app, k_tool,
                       "the master would start with EMPTY metadata (every candidate rejected, or a failed promotion)",
                       "quota-rebuild --store snapshots/genuine/s1_single_segment_basic/store "
                       "--policy snapshots/genuine/s1_single_segment_basic/policy.yaml --format json");
  mq::tools::CommonFlags common;
  mq::tools::RebuildFlags flags;
  mq::tools::add_rebuild_flags(app, flags);
  std::string cluster;
  app.add_option("--cluster", cluster,
                 "The cluster label of the Prometheus series (--format prom) (default: --cluster-id when given, "
                 "else default)")
      ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); });
  mq::tools::add_common_flags(app, common, {"text", "json", "prom"});
  std::string parse_error;
  if (int rc = mq::tools::parse_command_line(app, argc, argv, &parse_error); rc >= 0) {
    // A usage error with --format prom parsed: the failure textfile, to the --output path when
    // that was parsed (nothing when --output is there but its path was not taken).
    if (rc == mq::tools::k_exit_usage && !parse_error.empty()) {
      mq::tools::CommonFlags target;
      target.format = mq::tools::parsed_value(app, "--format").value_or("");
      auto output = mq::tools::parsed_value(app, "--output");
      if (output || !mq::tools::appears(argc, argv, "--output")) {
        target.output = output.value_or("");
        write_prom_failure(target, cluster_label(app), rc, parse_error);
      }
    }
    return rc;
  }
  mq::tools::setup_logging(common);
  const std::string label = cluster_label(app);
  if (auto s = mq::tools::finish_rebuild_flags(flags, common.threads); !s.ok()) {
    return report_failure(common, label, s);
  }
  const mq::quota::RebuildRequest& request = flags.request;

  const auto store = mq::tools::open_selected_store(flags);
  auto result = mq::quota::run_rebuild(*store, request);
  if (!result.ok()) return report_failure(common, label, result.status());
  for (const auto& w : result->policy_warnings) spdlog::warn("policy: {}", w);  // also in the report
  const int rc = result->starts_empty() ? k_exit_found : k_exit_ok;
  const auto format = mq::tools::output_format(common);
  auto written = mq::tools::emit_report(common, [&](std::ostream& out) {
    if (format == mq::report::OutputFormat::prom) {
      mq::report::render_rebuild_prom(*result, label, now_ms(), rc, out);
    } else {
      mq::report::render_rebuild(*result, format, out);
    }
    return mq::util::Status{};
  });
  if (!written.ok()) return mq::tools::fail(k_tool, written);
  if (result->starts_empty()) {
    spdlog::warn("the master would start with EMPTY metadata: {}",
                 result->promote ? "promotion restore validation fails: " + result->promote->validation.failure
                                 : result->outcome.empty_reason);
  }
  return rc;
}
