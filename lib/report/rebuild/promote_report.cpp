#include "report/rebuild/promote_report.hpp"

#include "format/oplog_batch.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

ordered_json replay_json(const restore::ReplayResult& replay, const quota::RebuildResult& r) {
  ordered_json j;
  j["origin"] = replay.origin;
  j["durable_prefix"] = replay.prefix
                            ? ordered_json{{"batch_id", replay.prefix->batch_id}, {"last_seq", replay.prefix->last_seq}}
                            : ordered_json(nullptr);
  j["replayed_from_seq"] = replay.first_expected;
  j["applied_seq"] = replay.applied_seq;
  j["until_seq"] = r.promote && replay.stopped_by_until_seq ? ordered_json(replay.applied_seq) : ordered_json(nullptr);
  j["is_promotion_outcome"] = !replay.stopped_by_until_seq;
  j["batches_decoded"] = replay.batches_decoded;
  j["entries_seen"] = replay.entries_seen;
  ordered_json by_op = ordered_json::object();
  for (std::uint32_t op = 1; op < format::op_type::max; ++op) {
    if (replay.counters.applied_by_op[op] > 0) by_op[format::op_type::name(op)] = replay.counters.applied_by_op[op];
  }
  j["applied_by_op"] = std::move(by_op);
  j["skipped_already_applied"] = replay.counters.skipped_already_applied;
  j["placeholders"] = {{"empty_payload", replay.counters.empty_placeholders},
                       {"undecodable_payload", replay.counters.undecodable_placeholders}};
  j["segment_noops"] = replay.counters.segment_noops;
  j["payload_forms"] = {{"compact", replay.counters.compact_payloads},
                        {"type_literal", replay.counters.literal_payloads}};
  j["orphan_batches"] = replay.orphan_batches;
  return j;
}

}  // namespace

std::vector<std::string> over_quota_tenants(const quota::RebuildResult& r) {
  std::vector<std::string> out;
  for (const auto& row : r.table.rows) {
    if (row.over_quota) out.push_back(row.tenant_id);
  }
  return out;
}

ordered_json promotion_json(const quota::RebuildResult& r) {
  const auto& p = *r.promote;
  ordered_json j;
  const auto& b = p.bootstrap;
  j["bootstrap"] = {{"catalog_root", b.catalog_root},
                    {"snapshot_id", b.snapshot_id ? ordered_json(*b.snapshot_id) : ordered_json(nullptr)},
                    {"loaded", b.loaded},
                    {"failure", b.failure.empty() ? ordered_json(nullptr) : ordered_json(b.failure)},
                    {"started_empty", !b.loaded},
                    {"objects_loaded", b.objects_loaded},
                    {"dropped",
                     {{"size_zero", b.dropped.size_zero},
                      {"lease_expired", b.dropped.lease_expired},
                      {"non_complete", b.dropped.non_complete},
                      {"invalid_memory", b.dropped.invalid_memory}}}};
  j["oplog"] = replay_json(p.replay, r);
  const auto& v = p.validation;
  ordered_json non_complete = ordered_json::object();
  for (const auto& [kind, n] : v.non_complete) non_complete[kind] = n;
  j["validation"] = {{"ok", v.ok},
                     {"failure", v.ok ? ordered_json(nullptr) : ordered_json(v.failure)},
                     {"objects", v.objects},
                     {"placeholders", v.placeholders},
                     {"legacy_scoped_keys", v.legacy_scoped_keys},
                     {"objects_with_non_complete_replicas", std::move(non_complete)},
                     {"registry",
                      {{"segments", v.registry_segments},
                       {"memory_segments", v.registry_memory_segments},
                       {"memory_capacity_bytes", v.registry_memory_capacity_bytes}}}};
  j["over_quota_tenants"] = over_quota_tenants(r);
  return j;
}

void render_promotion_header(const quota::RebuildResult& r, std::ostream& out) {
  const auto& p = *r.promote;
  const auto& b = p.bootstrap;
  if (p.no_snapshot_source) {
    out << "standby:   no snapshot store given: the standby starts empty and replays from sequence 1\n";
  } else if (!b.failure.empty()) {
    out << "STANDBY:   the snapshot load FAILED (" << util::printable(b.failure)
        << "): the standby starts EMPTY and replays the OpLog from sequence 1; every object of the snapshot is "
           "missing from the promoted state\n";
  } else if (!b.snapshot_id) {
    out << "standby:   the catalog names no snapshot: the standby starts empty and replays from sequence 1\n";
  } else {
    out << "standby:   snapshot " << *b.snapshot_id << " loaded with the standby rules: " << b.objects_loaded
        << " objects, last_included_seq " << b.last_included_seq << " (dropped: " << b.dropped.size_zero << " size-0, "
        << b.dropped.lease_expired << " lease-expired, " << b.dropped.non_complete << " non-complete, "
        << b.dropped.invalid_memory << " invalid-memory)\n";
  }
  const auto& rp = p.replay;
  out << "oplog:     " << rp.origin << ", durable prefix ";
  if (rp.prefix) {
    out << "batch " << rp.prefix->batch_id << " / sequence " << rp.prefix->last_seq;
  } else {
    out << "missing";
  }
  out << "; replayed " << rp.first_expected << ".." << rp.applied_seq << " (" << rp.batches_decoded
      << " batches decoded, placeholders " << rp.counters.empty_placeholders << " empty + "
      << rp.counters.undecodable_placeholders << " undecodable, " << rp.counters.segment_noops << " segment no-ops)\n";
  if (rp.stopped_by_until_seq) {
    out << "NOTE:      --until-seq stopped the replay at sequence " << rp.applied_seq
        << ": this is NOT a promotion outcome\n";
  }
  const auto& v = p.validation;
  if (!v.ok) {
    out << "PREDICTION: the promoted master serves EMPTY metadata: its restore validation fails ("
        << util::printable(v.failure) << "); every charge is 0\n";
  } else {
    out << "validate:  ok: " << v.objects << " objects (" << v.placeholders << " placeholders), registry "
        << v.registry_memory_segments << " memory segments, " << v.registry_memory_capacity_bytes << " bytes\n";
    for (const auto& [kind, n] : v.non_complete) {
      out << "note:      " << n << " objects hold " << kind << " replicas (kept by promotion, charged 0)\n";
    }
  }
  out << "path:      promote (hot-standby failover, modelling upstream 3b5a5941)\n";
}

}  // namespace moonquota::report
