#include "app/apply_command.hpp"

#include <memory>

#include "app/exit_codes.hpp"
#include "history/history_store.hpp"
#include "reconcile/master_admin.hpp"
#include "reconcile/repair_plan_json.hpp"
#include "util/elapsed.hpp"
#include "util/file_reader.hpp"
#include "util/text_encoding.hpp"
#include "util/time_text.hpp"

namespace moonquota::app {

namespace {

using reconcile::RepairAction;
using util::Status;

constexpr std::uint64_t k_max_plan_bytes = 64ULL << 20;

std::uint64_t distance(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : b - a; }

// Why the tenant no longer looks as the plan saw it, or "" when it does.
std::string moved(const reconcile::PlanStep& s, const std::optional<reconcile::LiveTenant>& now) {
  const auto& p = s.preconditions;
  if (!now) return p.listed ? "the master no longer lists the tenant" : "";
  if (p.has_explicit_policy && now->has_explicit_policy != *p.has_explicit_policy) {
    return std::string("has_explicit_policy is now ") + (now->has_explicit_policy ? "true" : "false") +
           ", the plan expected " + (*p.has_explicit_policy ? "true" : "false");
  }
  if (distance(now->charged_bytes, p.charged_bytes) > p.charged_tolerance_bytes) {
    return "charged " + std::to_string(now->charged_bytes) + " bytes now, the plan saw " +
           std::to_string(p.charged_bytes) + " (tolerance " + std::to_string(p.charged_tolerance_bytes) + ")";
  }
  return "";
}

util::Result<reconcile::AdminAnswer> send(reconcile::MasterAdmin& admin, const reconcile::PlanStep& s) {
  switch (s.action) {
    case RepairAction::adopt_orphan: return admin.put_policy(s.tenant_id, s.requested_quota_bytes.value_or(0));
    case RepairAction::retire_empty_policy: return admin.delete_policy(s.tenant_id);
    case RepairAction::purge_tenant: return admin.remove_all(s.tenant_id);
    case RepairAction::resync_requires_restart: break;
  }
  return Status::internal("no request for this action");
}

// The tenant as the master lists it now (none: 404, not visible).
util::Result<std::optional<reconcile::LiveTenant>> read_tenant(reconcile::MasterAdmin& admin, const std::string& id) {
  MQ_ASSIGN_OR_RETURN(const reconcile::AdminAnswer a, admin.get_tenant(id));
  if (a.status == 404) return std::optional<reconcile::LiveTenant>{};
  if (!a.ok()) return Status::corruption("GET " + reconcile::MasterAdmin::tenant_path(id) + ": " + a.summary());
  return std::optional<reconcile::LiveTenant>(a.tenant);
}

util::Result<reconcile::RepairPlan> load_plan(const ApplyArgs& a, std::uint64_t now_ms) {
  MQ_ASSIGN_OR_RETURN(const std::string text, util::read_small_file(a.plan_file, k_max_plan_bytes));
  MQ_ASSIGN_OR_RETURN(reconcile::RepairPlan plan, reconcile::parse_plan_json(text, a.plan_file));
  if (plan.cluster != a.cluster) {
    return Status::refused(a.plan_file + ": made for cluster '" + util::printable(plan.cluster) + "', not '" +
                           util::printable(a.cluster) + "' (--cluster names the cluster you apply it to)");
  }
  const std::uint64_t age = now_ms > plan.audit_at_ms ? now_ms - plan.audit_at_ms : 0;
  if (age > a.max_age_ms) {
    return Status::refused(a.plan_file + ": its audit is " + util::hms_text(static_cast<std::int64_t>(age)) +
                           " old, more than --max-age " + util::hms_text(static_cast<std::int64_t>(a.max_age_ms)) +
                           ": audit and plan again");
  }
  return plan;
}

history::RepairRecord record_of(const ApplyReport& r, const StepResult& s, std::uint64_t at_ms) {
  history::RepairRecord rec;
  rec.at_ms = at_ms;
  rec.cluster = r.plan.cluster;
  rec.plan_audit_at_ms = r.plan.audit_at_ms;
  rec.step = static_cast<std::uint32_t>(s.index);
  rec.action = reconcile::repair_action_name(s.step.action);
  rec.tenant_id = s.step.tenant_id;
  rec.request = s.outcome == "applied" || s.outcome == "failed" ? s.request : "";
  rec.outcome = s.outcome;
  rec.detail = s.detail;
  rec.before = s.before;
  rec.after = s.after;
  return rec;
}

}  // namespace

util::Result<ApplyReport> run_apply(const ApplyArgs& a, const ConfirmStep& confirm, const StepDone& done,
                                    std::uint64_t now_ms) {
  if (a.master.empty()) return Status::invalid_argument("apply needs --master URL: the master the plan is applied to");
  MQ_ASSIGN_OR_RETURN(const reconcile::MasterAddress address, reconcile::parse_master_url(a.master));
  ApplyReport report;
  report.plan_file = a.plan_file;
  MQ_ASSIGN_OR_RETURN(report.plan, load_plan(a, now_ms));
  std::unique_ptr<history::HistoryStore> db;
  if (!a.db.empty() && !a.dry_run) { MQ_ASSIGN_OR_RETURN(db, history::HistoryStore::open(a.db)); }
  reconcile::MasterClient client(address, reconcile::HttpTimeouts{a.timeout_ms, a.timeout_ms},
                                 reconcile::k_default_max_body_bytes, a.net_log);
  reconcile::MasterAdmin admin(client);
  bool partial = false;
  const auto finish_step = [&](StepResult& s) -> Status {
    if (db) { MQ_RETURN_IF_ERROR(db->append_repair(record_of(report, s, util::epoch_ms_now()))); }
    if (done) done(s);
    report.steps.push_back(std::move(s));
    return {};
  };
  const auto stop = [&](StepResult& s, int code, std::string why) -> Status {
    s.outcome = "failed";
    s.detail = why;
    report.stopped = "step " + std::to_string(s.index + 1) + ": " + why;
    report.exit_code = code;
    return finish_step(s);
  };
  for (std::size_t i = 0; i < report.plan.steps.size(); ++i) {
    StepResult s;
    s.index = i;
    s.step = report.plan.steps[i];
    s.request = reconcile::step_request_line(s.step);
    if (!s.step.sends_request()) {
      s.outcome = "informational";
      s.detail = "nothing to send: the master can forget this only by a restart or a failover";
      MQ_RETURN_IF_ERROR(finish_step(s));
      continue;
    }
    auto before = read_tenant(admin, s.step.tenant_id);
    if (!before.ok()) {
      MQ_RETURN_IF_ERROR(stop(s, exit_code_for(before.status()), before.status().message()));
      break;
    }
    s.before = *before;
    if (const std::string why = moved(s.step, s.before); !why.empty()) {
      s.outcome = "skipped";
      s.detail = "precondition moved: " + why;
      partial = true;
      MQ_RETURN_IF_ERROR(finish_step(s));
      continue;
    }
    if (a.dry_run) {
      s.outcome = "dry-run";
      s.detail = "would send it (preconditions hold)";
      MQ_RETURN_IF_ERROR(finish_step(s));
      continue;
    }
    if (!a.yes && !(confirm && confirm(s))) {
      s.outcome = "declined";
      s.detail = "not confirmed: nothing sent";
      partial = true;
      MQ_RETURN_IF_ERROR(finish_step(s));
      continue;
    }
    auto answer = send(admin, s.step);
    if (!answer.ok()) {
      MQ_RETURN_IF_ERROR(
          stop(s, exit_code_for(answer.status()),
               answer.status().message() + " (whether the master applied it is unknown: read it again)"));
      break;
    }
    if (!answer->ok()) {
      MQ_RETURN_IF_ERROR(stop(s, answer->status >= 500 ? k_exit_service : k_exit_found,
                              "the master refused it: " + answer->summary()));
      break;
    }
    auto after = read_tenant(admin, s.step.tenant_id);
    s.outcome = "applied";
    s.detail = answer->summary();
    if (answer->removed_count) s.detail += ", removed_count " + std::to_string(*answer->removed_count);
    if (after.ok()) {
      s.after = *after;
    } else {
      s.detail += "; reading it again failed: " + after.status().message();
    }
    MQ_RETURN_IF_ERROR(finish_step(s));
  }
  if (report.stopped.empty()) report.exit_code = partial ? k_exit_found : k_exit_ok;
  return report;
}

}  // namespace moonquota::app
