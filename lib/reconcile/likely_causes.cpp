#include "reconcile/likely_causes.hpp"

namespace moonquota::reconcile {

namespace {

std::string age_text(std::int64_t age_ms) {
  const std::int64_t s = (age_ms < 0 ? -age_ms : age_ms) / 1000;
  std::string span = s >= 3600 ? std::to_string(s / 3600) + " h"
                     : s >= 60 ? std::to_string(s / 60) + " min"
                               : std::to_string(s) + " s";
  return age_ms >= 0 ? "metadata is " + span + " older than the live sample"
                     : "metadata is " + span + " newer than the live sample";
}

void add_common_evidence(const TenantDiff& d, const DiffContext& ctx, std::vector<std::string>& out) {
  if (d.live && d.live_max_charged_bytes > d.live_charged_bytes) {
    out.push_back("charge varied by " + std::to_string(d.live_max_charged_bytes - d.live_charged_bytes) +
                  " bytes across samples: writes in flight");
  } else if (d.live && d.live->readings_present > 2) {
    out.push_back("charge identical in all " + std::to_string(d.live->readings_present) +
                  " readings: a write in flight would have to span every sample");
  }
  if (ctx.metadata_age_ms && (*ctx.metadata_age_ms > 1000 || *ctx.metadata_age_ms < -1000)) {
    out.push_back(age_text(*ctx.metadata_age_ms) + ": traffic since the snapshot changes the charge");
  }
}

// The causes with bytes are in TenantDiff::causes; these lines are for the remainder only.
void live_over(const TenantDiff& d, std::vector<std::string>& out) {
  if (d.unexplained_bytes <= 0) return;
  out.push_back(
      "writes, copies or upserts started after the metadata point (traffic since the snapshot: compare "
      "with a newer snapshot, or sample again with --samples)");
  out.push_back("COMPLETE replicas on a vanished segment (invalid handle) stay charged until next access");
  out.push_back(
      "a leaked refund: grep the master log for 'tenant quota ledger error' and 'release mismatch'; only a restart "
      "or failover recomputes it (quota-reconcile plan shows what a restart would charge)");
}

void live_under(const DiffContext& ctx, std::vector<std::string>& out) {
  if (ctx.promote) {
    out.push_back(
        "snapshot objects the primary evicted or removed without an OpLog entry: give --restore-time at the "
        "standby's bootstrap to count those whose lease ended since");
  }
  if (ctx.metadata_starts_empty)
    out.push_back("the modelled restore starts EMPTY: compare the table a restore would serve");
  out.push_back("objects removed or evicted since the metadata point");
  out.push_back("a failed standby restore: the promoted master serves empty metadata with every charge 0");
  out.push_back("invalid-handle replicas erased on access since the snapshot");
  out.push_back("lost charge (over-admission risk): grep the master log for 'tenant quota ledger error'");
}

}  // namespace

std::vector<std::string> likely_causes(const TenantDiff& d, const DiffContext& ctx) {
  std::vector<std::string> out;
  // The metadata's causes explain the whole delta: nothing is left to advise on. (A negative delta
  // has causes in the promote model only.)
  const bool fully_explained = d.delta_bytes != 0 && !d.causes.empty() && d.unexplained_bytes == 0;
  if (fully_explained &&
      (d.verdict == Verdict::live_over || d.verdict == Verdict::live_under || d.verdict == Verdict::missing_metadata)) {
    return out;
  }
  switch (d.verdict) {
    case Verdict::match: return out;
    case Verdict::live_over:
      add_common_evidence(d, ctx, out);
      live_over(d, out);
      break;
    case Verdict::live_under:
      add_common_evidence(d, ctx, out);
      live_under(ctx, out);
      break;
    case Verdict::missing_live:
      add_common_evidence(d, ctx, out);
      out.push_back("the tenant's objects were removed and its policy deleted since the metadata point");
      out.push_back("the policy file given here differs from the master's connector policy");
      out.push_back("the master restored another snapshot, or started empty");
      break;
    case Verdict::missing_metadata:
      add_common_evidence(d, ctx, out);
      out.push_back("objects written after the metadata point (the snapshot predates them)");
      out.push_back("a policy on the live master that is not in the policy file given here");
      break;
    case Verdict::flags_mismatch:
      if (ctx.promote && ctx.metadata_capacity_bytes == 0) {
        out.push_back(
            "after a promotion the effective quotas read 0 until clients remount their segments (capacity "
            "failover, the promote model's default): the promoted master serves 0 until then");
      }
      if (ctx.live_capacity_bytes && *ctx.live_capacity_bytes != ctx.metadata_capacity_bytes) {
        out.push_back("capacity drift: metadata capacity " + std::to_string(ctx.metadata_capacity_bytes) +
                      " bytes, live gauge " + std::to_string(*ctx.live_capacity_bytes) + " (rerun with --capacity " +
                      std::to_string(*ctx.live_capacity_bytes) + " to compare at the live capacity)");
      }
      out.push_back(
          "stale recompute: effective quotas use the capacity of the last recompute; a segment status change "
          "does not recompute");
      out.push_back("the policy file given here differs from the master's connector policy");
      out.push_back("a policy change in progress (admission is closed until the next recompute)");
      break;
  }
  return out;
}

}  // namespace moonquota::reconcile
