#include "report/reconcile/plan_report.hpp"

#include "reconcile/master_admin.hpp"
#include "reconcile/repair_plan_json.hpp"
#include "util/text_encoding.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

std::string preconditions_of(const reconcile::Preconditions& p) {
  std::string out = p.listed ? "listed" : "any";
  if (p.has_explicit_policy) out += std::string(", has_explicit_policy ") + (*p.has_explicit_policy ? "true" : "false");
  out += ", charged " + std::to_string(p.charged_bytes);
  if (p.charged_tolerance_bytes > 0) out += " ± " + std::to_string(p.charged_tolerance_bytes);
  return out + " bytes";
}

}  // namespace

std::string tenant_row_text(const std::optional<quota::TenantQuotaRow>& r) {
  if (!r) return "not listed";
  return "charged " + std::to_string(r->charged_bytes) + ", policy " +
         (r->has_explicit_policy ? std::to_string(r->requested_quota_bytes) : std::string("none")) + ", admission " +
         (r->admission_closed ? "closed" : "open");
}

void render_plan(const reconcile::RepairPlan& plan, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    out << reconcile::plan_json(plan);
    return;
  }
  out << "plan:      " << plan.steps.size() << " step" << (plan.steps.size() == 1 ? "" : "s") << " for cluster '"
      << util::printable(plan.cluster) << "', from the " << plan.model << " audit of " << util::printable(plan.master)
      << " at " << util::utc_iso8601(static_cast<std::int64_t>(plan.audit_at_ms)) << " (" << plan.audit_at_ms
      << " ms); nothing has been sent\n";
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& s = plan.steps[i];
    const auto& e = s.evidence;
    out << "\n"
        << i + 1 << ". " << reconcile::repair_action_name(s.action) << " '" << util::printable(s.tenant_id) << "'\n";
    out << "   why:      " << util::printable(s.reason) << "\n";
    out << "   evidence: " << e.verdict << ", live charged " << e.live_charged_bytes << ", expected "
        << e.expected_charged_bytes << ", unexplained " << e.unexplained_bytes << ", policy "
        << (e.live_has_explicit_policy ? "yes" : "no") << ", admission "
        << (e.live_admission_closed ? "closed" : "open") << ", metadata objects " << e.metadata_objects;
    if (e.restart_charged_bytes) {
      out << "; a restart now: charged " << *e.restart_charged_bytes << ", lease erasure drops "
          << e.restart_lease_dropped_bytes.value_or(0);
    }
    out << "\n   requires: " << preconditions_of(s.preconditions) << "\n";
    const std::string request = reconcile::step_request_line(s);
    out << "   sends:    " << (request.empty() ? "nothing (needs a restart or a failover)" : util::printable(request))
        << "\n";
  }
  for (const auto& n : plan.notes) out << "note:      " << util::printable(n) << "\n";
}

}  // namespace moonquota::report
