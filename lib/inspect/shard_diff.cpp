#include "inspect/shard_diff.hpp"

#include <algorithm>
#include <tuple>

#include "format/shard_decoder.hpp"

namespace moonquota::inspect {

namespace {

// One replica as the comparison needs it: the location is a view into the decompressed shard.
struct LightReplica {
  std::uint64_t id = 0;
  std::int8_t type = 0;
  std::int16_t status = 0;
  std::string_view location;  // MEMORY: segment id; DISK/DFS: path; LOCAL_DISK: client id
  std::uint64_t bytes = 0;
};

// One entry: views into the decompressed shard and a range of the side's replicas, so that an
// unchanged object (nearly all of them) costs no allocation; an ObjectSummary is built for
// changes only.
struct Entry {
  std::string_view tenant;
  std::string_view key;
  bool decoded = true;
  std::uint64_t size = 0;
  std::size_t first_replica = 0;
  std::size_t replicas = 0;
  std::size_t skip_reason = 0;  // index into SideCollector::reasons (skipped entries)
};

// Collects one side's entries and feeds the restore model.
class SideCollector final : public format::ShardVisitor {
 public:
  void on_entry(const format::ShardEntry& e) override {
    m_tally.on_entry(e);
    Entry entry;
    entry.tenant = e.object->tenant_id;
    entry.key = e.object->key;
    entry.decoded = e.result->outcome == format::DecodeOutcome::decoded;
    entry.first_replica = replicas.size();
    if (!entry.decoded) {
      entry.skip_reason = reasons.size();
      reasons.push_back(e.result->reason);
    } else {
      entry.size = e.object->size;
      for (const auto& r : e.object->replicas) {
        const bool memory = r.type == model::replica_type::memory;
        replicas.push_back({r.id, r.type, r.status,
                            memory                                      ? r.segment_id
                            : r.type == model::replica_type::local_disk ? r.client_id
                                                                        : r.file_path,
                            memory ? r.mem_size : r.object_size});
      }
      entry.replicas = replicas.size() - entry.first_replica;
    }
    entries.push_back(entry);
  }
  [[nodiscard]] ObjectSummary summary(std::uint32_t shard, const Entry& e) const {
    ObjectSummary out;
    out.shard = shard;
    out.decoded = e.decoded;
    if (!e.decoded) {
      out.skip_reason = reasons[e.skip_reason];
      return out;
    }
    out.size = e.size;
    for (std::size_t i = 0; i < e.replicas; ++i) {
      const LightReplica& r = replicas[e.first_replica + i];
      out.replicas.push_back({r.id, r.type, r.status, std::string(r.location), r.bytes});
    }
    return out;
  }
  std::vector<Entry> entries;
  std::vector<LightReplica> replicas;
  std::vector<std::string> reasons;
  restore::ShardTallyBuilder& tally() { return m_tally; }

 private:
  restore::ShardTallyBuilder m_tally;
};

util::Status decode_side(const char* side, std::uint32_t shard, std::optional<std::string_view> raw,
                         const format::SegmentTable& segments, std::uint64_t restore_time_ms, SideCollector& out,
                         restore::ShardTally& tally) {
  if (!raw) return {};
  format::ObjectView view;
  model::Findings findings;  // verify reports them; a diff does not
  util::Status s = format::decode_shard(*raw, shard, segments, view, out, findings);
  if (!s.ok()) return s.with_context(std::string("snapshot ") + side + ": metadata");
  out.tally().finish(shard, restore::ChargeModel::restore, restore_time_ms, tally, findings);
  auto less = [](const Entry& x, const Entry& y) { return std::tie(x.tenant, x.key) < std::tie(y.tenant, y.key); };
  if (!std::is_sorted(out.entries.begin(), out.entries.end(), less)) {
    std::stable_sort(out.entries.begin(), out.entries.end(), less);
  }
  return {};
}

using ReplicaSpan = std::pair<const LightReplica*, std::size_t>;

ReplicaSpan span_of(const SideCollector& side, const Entry& e) {
  return {side.replicas.data() + e.first_replica, e.replicas};
}

std::vector<std::tuple<std::int8_t, std::string_view>> replica_set(ReplicaSpan o) {
  std::vector<std::tuple<std::int8_t, std::string_view>> out;
  for (std::size_t i = 0; i < o.second; ++i) out.emplace_back(o.first[i].type, o.first[i].location);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::tuple<std::int8_t, std::string_view, std::int16_t>> status_set(ReplicaSpan o) {
  std::vector<std::tuple<std::int8_t, std::string_view, std::int16_t>> out;
  for (std::size_t i = 0; i < o.second; ++i) out.emplace_back(o.first[i].type, o.first[i].location, o.first[i].status);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> changed_fields(const Entry& a, ReplicaSpan ra, const Entry& b, ReplicaSpan rb) {
  std::vector<std::string> fields;
  if (a.decoded != b.decoded) {
    fields.emplace_back("decodable");
    return fields;
  }
  if (a.size != b.size) fields.emplace_back("size");
  // Fast path, the common case: the same replicas in the same order.
  const bool same_order = std::equal(ra.first, ra.first + ra.second, rb.first, rb.first + rb.second,
                                     [](const LightReplica& x, const LightReplica& y) {
                                       return x.type == y.type && x.status == y.status && x.location == y.location;
                                     });
  if (same_order) return fields;
  if (replica_set(ra) != replica_set(rb)) {
    fields.emplace_back("replicas");
  } else if (status_set(ra) != status_set(rb)) {
    fields.emplace_back("statuses");
  }
  return fields;
}

}  // namespace

const char* change_kind_name(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::added: return "added";
    case ChangeKind::removed: return "removed";
    case ChangeKind::changed: return "changed";
  }
  return "?";
}

util::Result<ShardDiff> diff_shard(std::uint32_t shard, std::optional<std::string_view> a,
                                   const format::SegmentTable& segments_a, std::optional<std::string_view> b,
                                   const format::SegmentTable& segments_b, std::uint64_t restore_time_ms) {
  ShardDiff out;
  out.shard = shard;
  SideCollector side_a;
  SideCollector side_b;
  MQ_RETURN_IF_ERROR(decode_side("A", shard, a, segments_a, restore_time_ms, side_a, out.tally_a));
  MQ_RETURN_IF_ERROR(decode_side("B", shard, b, segments_b, restore_time_ms, side_b, out.tally_b));
  auto& ea = side_a.entries;
  auto& eb = side_b.entries;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < ea.size() || j < eb.size()) {
    const bool take_a =
        j == eb.size() || (i < ea.size() && std::tie(ea[i].tenant, ea[i].key) < std::tie(eb[j].tenant, eb[j].key));
    const bool take_b =
        i == ea.size() || (j < eb.size() && std::tie(eb[j].tenant, eb[j].key) < std::tie(ea[i].tenant, ea[i].key));
    ObjectChange change;
    if (take_a) {
      change.kind = ChangeKind::removed;
      change.tenant_id = std::string(ea[i].tenant);
      change.key = std::string(ea[i].key);
      change.a = side_a.summary(shard, ea[i++]);
      ++out.counts.removed;
    } else if (take_b) {
      change.kind = ChangeKind::added;
      change.tenant_id = std::string(eb[j].tenant);
      change.key = std::string(eb[j].key);
      change.b = side_b.summary(shard, eb[j++]);
      ++out.counts.added;
    } else {
      auto fields = changed_fields(ea[i], span_of(side_a, ea[i]), eb[j], span_of(side_b, eb[j]));
      if (fields.empty()) {
        ++out.counts.unchanged;
        ++i;
        ++j;
        continue;
      }
      change.kind = ChangeKind::changed;
      change.tenant_id = std::string(ea[i].tenant);
      change.key = std::string(ea[i].key);
      change.fields = std::move(fields);
      change.a = side_a.summary(shard, ea[i++]);
      change.b = side_b.summary(shard, eb[j++]);
      ++out.counts.changed;
    }
    out.changes.push_back(std::move(change));
  }
  return out;
}

}  // namespace moonquota::inspect
