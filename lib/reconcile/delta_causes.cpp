#include "reconcile/delta_causes.hpp"

#include "reconcile/promote_phantoms.hpp"

#include "util/checked_math.hpp"
#include "util/plural.hpp"

namespace moonquota::reconcile {

namespace {

void add(std::vector<Cause>& out, const char* id, util::u128 bytes, std::string detail) {
  if (bytes == 0) return;
  out.push_back({id, util::saturated_charge(bytes), std::move(detail)});
}

// The causes of a positive delta (the live master charges more than the model).
std::vector<Cause> causes_of(const restore::TenantTally& tally, const DiffContext& ctx) {
  const auto& e = tally.evidence;
  std::vector<Cause> out;
  // In the restore model a write in flight is a non-COMPLETE object the restore erases: only the
  // master that wrote the metadata (still running) can charge it (audit item 15). A promotion keeps
  // such objects the OpLog brought, charged 0.
  const std::string running_only =
      ctx.promote ? "; the promotion keeps these objects charged 0 until their writes settle"
      : ctx.model == restore::ChargeModel::restore
          ? "; the restore erases these objects, so this explains a master that has kept running since the "
            "metadata was written, not one that restored it"
          : "";
  add(out, k_cause_in_flight, e.in_flight_bytes,
      util::counted(e.in_flight_objects, "object", "objects") +
          " with PROCESSING MEMORY replicas in the metadata (PutStart, Copy, Move or promotion targets): charged "
          "as pending until the write settles" +
          running_only);
  if (e.upserts.objects > 0) {
    add(out, k_cause_upsert_in_flight, e.upserts.old_bytes,
        util::counted(e.upserts.objects, "size-changing Upsert", "size-changing Upserts") + " in flight: the old " +
            std::to_string(util::saturated_charge(e.upserts.old_bytes)) + " bytes stay charged beside the new " +
            std::to_string(util::saturated_charge(e.upserts.new_bytes)) + " bytes until UpsertEnd" + running_only);
  }
  add(out, k_cause_removed_awaiting_finalize, e.removed_bytes,
      util::counted(e.removed_objects, "object", "objects") +
          " with REMOVED MEMORY replicas: charged until their OpLog batch is durable (HA mode)");
  if (ctx.model == restore::ChargeModel::restore && !ctx.promote) {
    add(out, k_cause_restore_drop_lease_expired, e.dropped_lease_expired_bytes,
        util::counted(tally.dropped.lease_expired, "lease-expired object", "lease-expired objects") +
            " erased by the restore at the restore time; a running master still charges them (use --model live "
            "for a periodic audit)");
    add(out, k_cause_restore_drop_non_complete, e.dropped_non_complete_bytes,
        util::counted(tally.dropped.non_complete, "object", "objects") +
            " with a non-COMPLETE replica erased by the restore; their COMPLETE MEMORY replicas are still charged "
            "on the master that wrote the snapshot");
  }
  return out;
}

// The promote model's bootstrap drops of `tenant`: the primary still charges those objects.
void add_bootstrap_drops(const std::string& tenant, const DiffContext& ctx, std::vector<Cause>& out) {
  if (ctx.drops == nullptr) return;
  const auto it = ctx.drops->tenants.find(tenant);
  if (it == ctx.drops->tenants.end()) return;
  const quota::TenantDrops& d = it->second;
  add(out, k_cause_promote_drop_lease_expired, d.lease_expired.bytes,
      util::counted(d.lease_expired.objects, "lease-expired object", "lease-expired objects") +
          " the standby's bootstrap erases (lease ended by the bootstrap instant); the primary still charges them "
          "until it evicts or removes them");
  add(out, k_cause_promote_drop_non_complete, d.non_complete.bytes,
      util::counted(d.non_complete.objects, "object", "objects") +
          " with a non-COMPLETE replica the standby's bootstrap erases; the primary still charges their COMPLETE "
          "MEMORY replicas");
}

// The causes of a negative delta in the promote model (the promotion would charge more).
std::vector<Cause> phantom_causes(const std::string& tenant, const DiffContext& ctx) {
  std::vector<Cause> out;
  if (ctx.phantoms == nullptr || !ctx.phantoms->computed) return out;
  const auto it = ctx.phantoms->tenants.find(tenant);
  if (it == ctx.phantoms->tenants.end()) return out;
  add(out, k_cause_promote_phantom, it->second.bytes,
      util::counted(it->second.objects, "snapshot object", "snapshot objects") +
          " whose lease ended after the standby's bootstrap and that no OpLog entry touches: the primary may have "
          "evicted them for the tenant's quota, which writes no OpLog entry at 3b5a5941, while the standby keeps "
          "them, so a promotion charges them again");
  return out;
}

}  // namespace

void explain_delta(TenantDiff& d, const DiffContext& ctx) {
  d.causes.clear();
  d.explained_bytes = 0;
  d.unexplained_bytes = d.delta_bytes;
  const restore::TenantTally* tally = nullptr;
  // Every tenant seen in the metadata has a tally, also one whose objects a restore all erased
  // (it then has no account row: missing_metadata).
  if (ctx.tallies != nullptr) {
    auto it = ctx.tallies->find(d.tenant_id);
    if (it != ctx.tallies->end()) tally = &it->second;
  }
  if (tally != nullptr) d.in_flight_bytes = util::saturated_charge(tally->evidence.in_flight_bytes);
  if (d.delta_bytes > 0) {
    if (tally != nullptr) d.causes = causes_of(*tally, ctx);
    if (ctx.promote) add_bootstrap_drops(d.tenant_id, ctx, d.causes);
  } else if (d.delta_bytes < 0 && ctx.promote) {
    d.causes = phantom_causes(d.tenant_id, ctx);
  }
  if (!d.causes.empty()) {
    util::u128 sum = 0;
    for (const auto& c : d.causes) sum += c.bytes;
    const std::uint64_t delta = abs_bytes(d.delta_bytes);
    d.explained_bytes = sum < delta ? static_cast<std::uint64_t>(sum) : delta;
    const std::uint64_t left = delta - d.explained_bytes;  // <= |delta|: fits the delta's sign
    d.unexplained_bytes = d.delta_bytes > 0 ? static_cast<std::int64_t>(left)
                          : left == 0       ? 0
                                            : -static_cast<std::int64_t>(left - 1) - 1;
  }
  d.unexplained_within_tolerance = abs_bytes(d.unexplained_bytes) <= ctx.tolerance_bytes;
}

}  // namespace moonquota::reconcile
