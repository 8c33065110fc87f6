#include "inspect/shard_diff.hpp"

#include <algorithm>
#include <tuple>

#include "format/shard_decoder.hpp"
#include "inspect/shard_diff_reuse.hpp"
#include "inspect/shard_diff_side.hpp"

namespace moonquota::inspect {

namespace {

using detail::Entry;
using detail::SideCollector;

// The decoder's pass over one side (its restore model is finished by finish_side).
util::Status decode_side(const char* side, std::uint32_t shard, std::string_view raw,
                         const format::SegmentTable& segments, format::ObjectView& view, SideCollector& out,
                         model::Findings& findings) {
  util::Status s = format::decode_shard(raw, shard, segments, view, out, findings);
  if (!s.ok()) return s.with_context(std::string("snapshot ") + side + ": metadata");
  return {};
}

void finish_side(std::uint32_t shard, std::uint64_t restore_time_ms, SideCollector& out, restore::ShardTally& tally,
                 model::Findings& findings) {
  const bool in_order = out.sorted();  // finish() forgets it
  out.tally().finish(shard, restore::ChargeModel::restore, restore_time_ms, tally, findings);
  if (!in_order) {
    std::stable_sort(out.entries.begin(), out.entries.end(), [](const Entry& x, const Entry& y) {
      return std::tie(x.tenant, x.key) < std::tie(y.tenant, y.key);
    });
  }
}

using ReplicaSpan = std::pair<const ReplicaRef*, std::size_t>;

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

// The k_field_* bits that differ (0: unchanged).
unsigned changed_fields(const Entry& a, ReplicaSpan ra, const Entry& b, ReplicaSpan rb) {
  if (a.decoded != b.decoded) return k_field_decodable;
  unsigned fields = a.size != b.size ? k_field_size : 0;
  // Fast path, the common case: the same replicas in the same order.
  const bool same_order = std::equal(ra.first, ra.first + ra.second, rb.first, rb.first + rb.second,
                                     [](const ReplicaRef& x, const ReplicaRef& y) {
                                       return x.type == y.type && x.status == y.status && x.location == y.location;
                                     });
  if (same_order) return fields;
  if (replica_set(ra) != replica_set(rb)) {
    fields |= k_field_replicas;
  } else if (status_set(ra) != status_set(rb)) {
    fields |= k_field_statuses;
  }
  return fields;
}

}  // namespace

// One ObjectView per side: its decoder caches (segment UUIDs) belong to that side's segment table.
struct ShardDiffScratch::Impl {
  format::ObjectView view_a;
  format::ObjectView view_b;
  SideCollector a;
  SideCollector b;
  model::Findings findings_a;
  model::Findings findings_b;
  detail::ReuseScratch reuse;
};

ShardDiffScratch::ShardDiffScratch() : m_impl(std::make_unique<Impl>()) {}
ShardDiffScratch::~ShardDiffScratch() = default;
ShardDiffScratch::ShardDiffScratch(ShardDiffScratch&&) noexcept = default;
ShardDiffScratch& ShardDiffScratch::operator=(ShardDiffScratch&&) noexcept = default;

const char* change_kind_name(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::added: return "added";
    case ChangeKind::removed: return "removed";
    case ChangeKind::changed: return "changed";
  }
  return "?";
}

ShardChanges::Span ShardChanges::store(std::string_view bytes) {
  Span s{m_bytes.size(), bytes.size()};
  m_bytes.append(bytes);
  return s;
}

ShardChanges::Side ShardChanges::store(const SideRef* side) {
  Side out;
  if (side == nullptr) return out;
  out.present = true;
  out.decoded = side->decoded;
  if (!side->decoded) {
    out.skip_reason = store(side->skip_reason);
    return out;
  }
  out.size = side->size;
  out.first_replica = m_replicas.size();
  out.replicas = side->replica_count;
  for (std::size_t i = 0; i < side->replica_count; ++i) {
    const ReplicaRef& r = side->replicas[i];
    m_replicas.push_back({r.id, r.bytes, store(r.location), r.status, r.type});
  }
  return out;
}

void ShardChanges::add(ChangeKind kind, std::string_view tenant, std::string_view key, unsigned fields,
                       const SideRef* a, const SideRef* b) {
  Change c;
  c.kind = kind;
  c.fields = fields;
  c.tenant = store(tenant);
  c.key = store(key);
  c.a = store(a);
  c.b = store(b);
  m_changes.push_back(c);
}

void ShardChanges::load(const Side& side, std::uint32_t shard, std::optional<ObjectSummary>& out) const {
  if (!side.present) {
    out.reset();
    return;
  }
  if (!out) out.emplace();
  ObjectSummary& o = *out;
  o.shard = shard;
  o.decoded = side.decoded;
  o.skip_reason.assign(view(side.skip_reason));
  o.size = side.size;
  o.replicas.resize(side.replicas);
  for (std::size_t i = 0; i < side.replicas; ++i) {
    const Replica& r = m_replicas[side.first_replica + i];
    ReplicaSummary& s = o.replicas[i];
    s.id = r.id;
    s.type = r.type;
    s.status = r.status;
    s.location.assign(view(r.location));
    s.bytes = r.bytes;
  }
}

void ShardChanges::get(std::size_t i, std::uint32_t shard, ObjectChange& out) const {
  const Change& c = m_changes[i];
  out.kind = c.kind;
  out.tenant_id.assign(view(c.tenant));
  out.key.assign(view(c.key));
  load(c.a, shard, out.a);
  load(c.b, shard, out.b);
  out.fields.clear();
  if (c.fields & k_field_decodable) out.fields.emplace_back("decodable");
  if (c.fields & k_field_size) out.fields.emplace_back("size");
  if (c.fields & k_field_replicas) out.fields.emplace_back("replicas");
  if (c.fields & k_field_statuses) out.fields.emplace_back("statuses");
}

util::Result<ShardDiff> diff_shard(std::uint32_t shard, std::optional<std::string_view> a,
                                   const format::SegmentTable& segments_a, std::optional<std::string_view> b,
                                   const format::SegmentTable& segments_b, const ShardDiffOptions& options,
                                   ShardDiffScratch& scratch) {
  ShardDiff out;
  out.shard = shard;
  auto& work = scratch.impl();
  SideCollector& side_a = work.a;
  SideCollector& side_b = work.b;
  // The decoders' findings: a diff does not report them (verify does), tests compare them.
  work.findings_a.clear();
  work.findings_b.clear();
  side_a.reset(&work.findings_a);
  side_b.reset(nullptr);
  if (a) MQ_RETURN_IF_ERROR(decode_side("A", shard, *a, segments_a, work.view_a, side_a, work.findings_a));
  bool reused = false;
  if (b && a && options.a_usable_segments_usable_in_b && side_a.sorted()) {
    reused = detail::collect_reusing(shard, *a, side_a, *b, segments_b, work.view_b, side_b, work.reuse);
    if (!reused) side_b.reset(nullptr);
  }
  if (b && !reused) MQ_RETURN_IF_ERROR(decode_side("B", shard, *b, segments_b, work.view_b, side_b, work.findings_b));
  if (a) finish_side(shard, options.restore_time_ms, side_a, out.tally_a, work.findings_a);
  if (b) finish_side(shard, options.restore_time_ms, side_b, out.tally_b, work.findings_b);
  if (options.findings != nullptr) {
    options.findings->insert(options.findings->end(), work.findings_a.begin(), work.findings_a.end());
    options.findings->insert(options.findings->end(), work.findings_b.begin(), work.findings_b.end());
  }
  out.b_reused = reused;
  const auto& ea = side_a.entries;
  const auto& eb = side_b.entries;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < ea.size() || j < eb.size()) {
    // An entry of B taken from this very entry of A has A's views (distinct entries of A have
    // keys at distinct addresses): the same object with the same values, so unchanged without
    // comparing the keys and replicas byte by byte.
    if (reused && i < ea.size() && j < eb.size() && ea[i].key.data() == eb[j].key.data() &&
        ea[i].key.size() == eb[j].key.size()) {
      ++out.counts.unchanged;
      ++i;
      ++j;
      continue;
    }
    const bool take_a =
        j == eb.size() || (i < ea.size() && std::tie(ea[i].tenant, ea[i].key) < std::tie(eb[j].tenant, eb[j].key));
    const bool take_b =
        i == ea.size() || (j < eb.size() && std::tie(eb[j].tenant, eb[j].key) < std::tie(ea[i].tenant, ea[i].key));
    if (take_a) {
      const SideRef sa = side_a.side(ea[i]);
      out.changes.add(ChangeKind::removed, ea[i].tenant, ea[i].key, 0, &sa, nullptr);
      ++out.counts.removed;
      ++i;
    } else if (take_b) {
      const SideRef sb = side_b.side(eb[j]);
      out.changes.add(ChangeKind::added, eb[j].tenant, eb[j].key, 0, nullptr, &sb);
      ++out.counts.added;
      ++j;
    } else {
      const unsigned fields = changed_fields(ea[i], span_of(side_a, ea[i]), eb[j], span_of(side_b, eb[j]));
      if (fields == 0) {
        ++out.counts.unchanged;
      } else {
        const SideRef sa = side_a.side(ea[i]);
        const SideRef sb = side_b.side(eb[j]);
        out.changes.add(ChangeKind::changed, ea[i].tenant, ea[i].key, fields, &sa, &sb);
        ++out.counts.changed;
      }
      ++i;
      ++j;
    }
  }
  return out;
}

}  // namespace moonquota::inspect
