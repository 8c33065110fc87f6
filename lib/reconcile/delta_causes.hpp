// The causes of a tenant's positive delta that the metadata itself shows, each with its bytes
// (quota-semantics.md §16, live-master-api.md §11 item 8), and the unexplained remainder:
//   in_flight_writes            size x PROCESSING MEMORY replicas (PutStart / Copy / Move /
//                               promotion targets): charged as pending, not yet committed
//   upsert_in_flight            the old MEMORY bytes a size-changing UpsertStart keeps charged
//                               beside the new pending bytes (matched in "discarded_replicas")
//   removed_awaiting_finalize   size x REMOVED MEMORY replicas: charged until the durable finalize
//   restore_drop_lease_expired  restore model: committed charge of objects a restore erases for
//   restore_drop_non_complete   an expired lease / a non-COMPLETE replica; the master that wrote
//                               the snapshot still charged them
//   promote_drop_lease_expired  promote model: the same for the standby's bootstrap (the primary
//   promote_drop_non_complete   still charges those objects)
// and, in the promote model only, of a negative delta (the promotion would charge more):
//   promote_phantom_lease_ended snapshot objects whose lease ended after the standby's bootstrap
//                               and that no OpLog entry touches (reconcile/promote_phantoms.hpp)
// explained = min(|delta|, sum of cause bytes); unexplained = delta minus explained, towards 0.
// Without causes explained is 0. A tenant absent from the metadata has no causes; one whose
// objects the restore all erased (no account row) has its drops.
#pragma once

#include "reconcile/diff.hpp"

namespace moonquota::reconcile {

// Fills in_flight_bytes, causes, explained_bytes, unexplained_bytes and
// unexplained_within_tolerance of `diff` (delta, verdict and tolerance already set).
void explain_delta(TenantDiff& diff, const DiffContext& context);

}  // namespace moonquota::reconcile
