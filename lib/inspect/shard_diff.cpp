#include "inspect/shard_diff.hpp"

#include <algorithm>
#include <tuple>

#include "format/shard_decoder.hpp"

namespace moonquota::inspect {

namespace {

struct Entry {
  std::string_view tenant;
  std::string_view key;
  ObjectSummary summary;
};

// Collects one side's entries (views into its decompressed shard) and feeds the restore model.
class SideCollector final : public format::ShardVisitor {
 public:
  void on_entry(const format::ShardEntry& e) override {
    m_tally.on_entry(e);
    Entry entry;
    entry.tenant = e.object->tenant_id;
    entry.key = e.object->key;
    entry.summary.shard = e.shard_index;
    entry.summary.decoded = e.result->outcome == format::DecodeOutcome::decoded;
    if (!entry.summary.decoded) {
      entry.summary.skip_reason = e.result->reason;
    } else {
      entry.summary.size = e.object->size;
      for (const auto& r : e.object->replicas) {
        ReplicaSummary s;
        s.id = r.id;
        s.type = r.type;
        s.status = r.status;
        const bool memory = r.type == model::replica_type::memory;
        s.location = std::string(memory                                      ? r.segment_id
                                 : r.type == model::replica_type::local_disk ? r.client_id
                                                                             : r.file_path);
        s.bytes = memory ? r.mem_size : r.object_size;
        entry.summary.replicas.push_back(std::move(s));
      }
    }
    entries.push_back(std::move(entry));
  }
  std::vector<Entry> entries;
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

std::vector<std::tuple<std::int8_t, std::string_view>> replica_set(const ObjectSummary& o) {
  std::vector<std::tuple<std::int8_t, std::string_view>> out;
  for (const auto& r : o.replicas) out.emplace_back(r.type, r.location);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::tuple<std::int8_t, std::string_view, std::int16_t>> status_set(const ObjectSummary& o) {
  std::vector<std::tuple<std::int8_t, std::string_view, std::int16_t>> out;
  for (const auto& r : o.replicas) out.emplace_back(r.type, r.location, r.status);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> changed_fields(const ObjectSummary& a, const ObjectSummary& b) {
  std::vector<std::string> fields;
  if (a.decoded != b.decoded) {
    fields.emplace_back("decodable");
    return fields;
  }
  if (a.size != b.size) fields.emplace_back("size");
  // Fast path, the common case: the same replicas in the same order.
  const bool same_order = std::equal(a.replicas.begin(), a.replicas.end(), b.replicas.begin(), b.replicas.end(),
                                     [](const ReplicaSummary& x, const ReplicaSummary& y) {
                                       return x.type == y.type && x.status == y.status && x.location == y.location;
                                     });
  if (same_order) return fields;
  if (replica_set(a) != replica_set(b)) {
    fields.emplace_back("replicas");
  } else if (status_set(a) != status_set(b)) {
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
      change.a = std::move(ea[i++].summary);
      ++out.counts.removed;
    } else if (take_b) {
      change.kind = ChangeKind::added;
      change.tenant_id = std::string(eb[j].tenant);
      change.key = std::string(eb[j].key);
      change.b = std::move(eb[j++].summary);
      ++out.counts.added;
    } else {
      auto fields = changed_fields(ea[i].summary, eb[j].summary);
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
      change.a = std::move(ea[i++].summary);
      change.b = std::move(eb[j++].summary);
      ++out.counts.changed;
    }
    out.changes.push_back(std::move(change));
  }
  return out;
}

}  // namespace moonquota::inspect
