// quota-rebuild: the account table a Mooncake master serves after restoring a snapshot store.
#include <spdlog/spdlog.h>

#include <iostream>

#include "quota/rebuild.hpp"
#include "rebuild_flags.hpp"
#include "report/rebuild_report.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;
using mq::tools::k_exit_found;
using mq::tools::k_exit_ok;

int main(int argc, char** argv) {
  CLI::App app{
      "Predict the tenant quota account table a Mooncake master serves after restoring a snapshot store "
      "or after a hot-standby promotion (snapshot + OpLog tail)"};
  mq::tools::setup_app(app, "quota-rebuild",
                       "the master would start with EMPTY metadata (every candidate rejected, or a failed promotion)",
                       "quota-rebuild --store snapshots/genuine/s1_single_segment_basic/store "
                       "--policy snapshots/genuine/s1_single_segment_basic/policy.yaml --format json");
  mq::tools::CommonFlags common;
  mq::tools::RebuildFlags flags;
  mq::tools::add_rebuild_flags(app, flags);
  mq::tools::add_common_flags(app, common, {"text", "json"});
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  if (auto s = mq::tools::finish_rebuild_flags(flags, common.threads); !s.ok()) {
    return mq::tools::fail("quota-rebuild", s);
  }
  const mq::quota::RebuildRequest& request = flags.request;

  auto result = mq::quota::run_rebuild(request);
  if (!result.ok()) return mq::tools::fail("quota-rebuild", result.status());
  for (const auto& w : result->policy_warnings) spdlog::warn("policy: {}", w);  // also in the report
  const auto format = mq::tools::output_format(common);
  auto written = mq::tools::emit_report(common, [&](std::ostream& out) {
    mq::report::render_rebuild(*result, format, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return mq::tools::fail("quota-rebuild", written);
  if (result->starts_empty()) {
    spdlog::warn("the master would start with EMPTY metadata: {}",
                 result->promote ? "promotion restore validation fails: " + result->promote->validation.failure
                                 : result->outcome.empty_reason);
    return k_exit_found;
  }
  return k_exit_ok;
}
