#include "reconcile/promote_phantoms.hpp"

#include "util/checked_math.hpp"

namespace moonquota::reconcile {

namespace {

std::string bootstrapped_snapshot(const quota::RebuildResult& r) {
  const auto& boot = r.promote->bootstrap;
  return boot.loaded && boot.snapshot_id ? *boot.snapshot_id : "";
}

}  // namespace

util::Result<PromotePhantoms> promote_phantoms(source::ObjectStore& store, const quota::RebuildRequest& request,
                                               const quota::RebuildResult& promoted, std::uint64_t until_ms) {
  PromotePhantoms out;
  out.bootstrap_ms = promoted.restore_time_ms;
  out.until_ms = until_ms;
  if (!promoted.promote || promoted.starts_empty()) {
    out.note = "the promotion starts EMPTY: it holds no object";
    return out;
  }
  if (promoted.restore_time_ms >= until_ms) {
    out.note =
        "the bootstrap instant is not before the live sample: no lease can have ended since (give the "
        "standby's bootstrap time with --restore-time)";
    return out;
  }
  quota::RebuildRequest later = request;
  later.restore.restore_time_ms = until_ms;
  later.replay.until_seq = promoted.promote->replay.applied_seq;  // an OpLog that grew since: not replayed
  later.explain.reset();
  MQ_ASSIGN_OR_RETURN(const quota::RebuildResult now, quota::run_rebuild(store, later));
  if (now.starts_empty()) {
    out.note = "a standby bootstrapped at the live sample would start EMPTY: no comparison";
    return out;
  }
  if (bootstrapped_snapshot(now) != bootstrapped_snapshot(promoted)) {
    out.note = "the latest snapshot changed while the audit ran: run it again";
    return out;
  }
  const auto& at_now = now.promote->validation.tenants;
  for (const auto& [tenant, tally] : promoted.promote->validation.tenants) {
    const auto it = at_now.find(tenant);
    const util::u128 later_bytes = it == at_now.end() ? 0 : it->second.charged_bytes;
    const std::uint64_t later_objects = it == at_now.end() ? 0 : it->second.objects;
    if (tally.charged_bytes <= later_bytes && tally.objects <= later_objects) continue;
    PhantomTally& p = out.tenants[tenant];
    p.bytes = tally.charged_bytes > later_bytes ? util::saturated_charge(tally.charged_bytes - later_bytes) : 0;
    p.objects = tally.objects > later_objects ? tally.objects - later_objects : 0;
  }
  out.computed = true;
  return out;
}

}  // namespace moonquota::reconcile
