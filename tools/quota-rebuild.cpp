// quota-rebuild: the account table a Mooncake master serves after restoring a snapshot store.
#include <spdlog/spdlog.h>

#include <sstream>

#include "app/rebuild_command.hpp"
#include "report/rebuild/rebuild_prom.hpp"
#include "report/rebuild/rebuild_report.hpp"
#include "store_flags.hpp"
#include "tool_common.hpp"
#include "util/elapsed.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "quota-rebuild";

// With --format prom, a textfile that says the check failed (exits 2-5), so the alert on a
// failing check fires instead of the last good file staying in place.
mq::tools::FailureReport prom_failure(const std::string& cluster) {
  return [cluster](int rc, const std::string& message) {
    std::ostringstream text;
    mq::report::render_rebuild_prom_failure(cluster, mq::util::epoch_ms_now(), rc, message, text);
    return text.str();
  };
}

int run(int argc, char** argv) {
  CLI::App app{
      "Predict the tenant quota account table a Mooncake master serves after restoring a snapshot store "
      "or after a hot-standby promotion (snapshot + OpLog tail)"};
  mq::tools::setup_app(
      app, k_tool,
      {"the master would start with EMPTY metadata (every candidate rejected, or a failed promotion), or the "
       "table differs from --expect",
       "a store, snapshot, OpLog or policy", "S3, etcd or Redis"},
      "quota-rebuild --store snapshots/genuine/s1_single_segment_basic/store "
      "--policy snapshots/genuine/s1_single_segment_basic/policy.yaml --format json");
  mq::tools::CommonFlags common;
  mq::app::RebuildArgs args;
  mq::tools::add_rebuild_flags(app, args);
  app.add_option("--expect", args.expect,
                 "Compare the table with an expected one: quota-rebuild JSON, a master's tenant_quotas response or "
                 "an array of its rows; exit 1 when a tenant or field differs")
      ->type_name("FILE");
  std::string cluster;
  app.add_option("--cluster", cluster,
                 "The cluster label of the Prometheus series (--format prom) (default: --cluster-id when given, "
                 "else default)")
      ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); });
  mq::tools::add_common_flags(app, common, {"text", "json", "prom"});
  std::string parse_error;
  if (int rc = mq::tools::parse_command_line(app, argc, argv, &parse_error); rc >= 0) {
    if (rc == mq::tools::k_exit_usage)
      mq::tools::report_parse_failure(app, argc, argv, parse_error, prom_failure(mq::tools::cluster_label(app)));
    return rc;
  }
  mq::tools::setup_logging(common);
  const std::string label = mq::tools::cluster_label(app);
  const auto fail_run = [&](const mq::util::Status& status) {
    return mq::tools::fail_with_report(k_tool, common, status, prom_failure(label));
  };
  args.threads = common.threads;
  if (args.explain && common.format == "prom") {
    return fail_run(mq::util::Status::invalid_argument("--explain is shown by --format text and json"));
  }
  auto plan = mq::app::plan_rebuild(args);
  if (!plan.ok()) return fail_run(plan.status());
  auto outcome = mq::app::run_rebuild_command(*plan);
  if (!outcome.ok()) return fail_run(outcome.status());
  const auto& result = outcome->result;
  for (const auto& w : result.policy_warnings) spdlog::warn("policy: {}", w);  // also in the report
  const auto format = mq::tools::output_format(common);
  auto written = mq::tools::emit_report(common, [&](std::ostream& out) {
    if (format == mq::report::OutputFormat::prom) {
      mq::report::render_rebuild_prom(result, label, mq::util::epoch_ms_now(), outcome->exit_code, out);
    } else {
      mq::report::render_rebuild(result, format, out);
    }
    return mq::util::Status{};
  });
  if (!written.ok()) return mq::tools::fail(k_tool, written);
  if (result.starts_empty()) {
    spdlog::warn("the master would start with EMPTY metadata: {}",
                 result.promote ? "promotion restore validation fails: " + result.promote->validation.failure
                                : result.outcome.empty_reason);
  }
  return outcome->exit_code;
}

}  // namespace

int main(int argc, char** argv) { return mq::tools::run_guarded(k_tool, argc, argv, run); }
