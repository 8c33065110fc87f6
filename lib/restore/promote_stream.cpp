#include "restore/promote_stream.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <span>

#include "model/enums.hpp"
#include "model/tenant_id.hpp"
#include "restore/fingerprint_runs.hpp"
#include "restore/promotion_checks.hpp"
#include "restore/range_runs.hpp"
#include "restore/snapshot_reader.hpp"
#include "restore/tail_facts.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

namespace {

// A worker seals its pending ranges into runs once it holds this many (16 MiB).
constexpr std::size_t k_ranges_per_seal = std::size_t{1} << 20;
// A worker asks the tail about the kept objects of a shard in rows of at most this many (their
// views into the shard's bytes stay valid until the shard ends), loading the tail's filter words
// and slots this many objects ahead.
constexpr std::size_t k_pending_objects = 4096;
constexpr std::size_t k_filter_ahead = 16;
constexpr std::size_t k_touched_slot_ahead = 8;

// The objects the promoted master holds, checked and tallied one at a time as the validation
// does; the checks that need every object at once are left to their compact facts.
// Their totals are kept per lease bucket (ScanContext::lease_bucket): one bucket without lease
// points.
class HeldObjects {
 public:
  HeldObjects(const PromotionSegments& segments, std::size_t buckets)
      : totals(buckets), used(segments.size(), 0), ranges(segments.size()), m_segments(segments) {}

  // false: the object fails a check of its own (the whole map names the first such object).
  bool add(std::string_view raw_tenant, std::string_view raw_key, std::uint64_t size, bool placeholder,
           std::span<const ReplicaFacts> replicas, std::size_t bucket) {
    std::string_view tenant = raw_tenant;
    ResolvedName resolved;
    if (raw_tenant.empty() || raw_key.find('\0') != std::string_view::npos) {
      resolved = resolve_name(raw_tenant, raw_key);
      tenant = resolved.tenant;
      if (resolved.scoped) ++totals[bucket].legacy_scoped_keys;
      resolved_names.push_back(StandbyStore::object_key(resolved.tenant, resolved.key));
    }
    if (!model::is_valid_tenant_id(tenant)) return false;
    for (const ReplicaFacts& r : replicas) {
      std::size_t segment = PromotionSegments::k_none;
      if (check_replica(r, size, m_segments, segment, m_last_alias, m_last_segment) != ReplicaFault::none) return false;
      if (r.variant != format::payload_variant::memory || !counts_against_segment(r.status)) continue;
      used[segment] += r.buffer_size;
      ranges.add(segment, r.buffer_address, r.buffer_address + r.buffer_size);
    }
    totals[bucket].add(tenant, size, placeholder, replicas);
    return true;
  }

  void absorb(HeldObjects&& other) {
    for (std::size_t b = 0; b < totals.size(); ++b) totals[b].merge(std::move(other.totals[b]));
    for (std::size_t s = 0; s < used.size(); ++s) used[s] += other.used[s];
    ranges.absorb(std::move(other.ranges));
    for (auto& name : other.resolved_names) resolved_names.push_back(std::move(name));
  }

  std::vector<PromotionTotals> totals;  // per lease bucket
  std::vector<util::u128> used;         // per segment: counted MEMORY bytes
  RangeRuns ranges;
  // The (tenant, key) composite each re-scoped object resolves to: an object whose raw tenant is
  // "" or whose key holds a NUL (only such an object can resolve onto another one).
  std::vector<std::string> resolved_names;

 private:
  const PromotionSegments& m_segments;
  std::string m_last_alias;  // PromotionSegments::find_cached
  std::size_t m_last_segment = PromotionSegments::k_none;
};

// What every worker reads: set once the snapshot's segments are known, before the first shard.
struct ScanContext {
  StandbyRules rules;
  SegmentEndpoints endpoints;
  TailFacts tail;                             // the OpLog tail's final records and tombstones, and the final registry
  std::optional<PromotionSegments> segments;  // set when the tail has been replayed
  util::Result<ReplayResult> replay = util::Status::internal("the OpLog tail was not replayed");
  std::atomic<bool> whole_map_needed{false};
  // Survival's instants, ascending (empty: one promotion). An object's lease bucket is the first
  // point at which a bootstrap drops it for its lease (lease_timeout <= the point), or
  // lease_points.size() (never: also every object the tail writes).
  std::vector<std::uint64_t> lease_points;

  [[nodiscard]] std::size_t buckets() const { return lease_points.size() + 1; }
  [[nodiscard]] std::size_t lease_bucket(std::uint64_t lease_timeout_ms) const {
    return static_cast<std::size_t>(
        std::partition_point(lease_points.begin(), lease_points.end(),
                             [lease_timeout_ms](std::uint64_t at) { return at < lease_timeout_ms; }) -
        lease_points.begin());
  }
};

class StreamWorker : public ShardAnalyzer {
 public:
  explicit StreamWorker(ScanContext& context) : m_context(context) {}

  void begin_shard(const ShardContext& /*shard*/) override {
    if (!m_held && m_context.segments && m_context.segments->error().empty()) {
      m_held = std::make_unique<HeldObjects>(*m_context.segments, m_context.buckets());
    }
  }

  void on_entry(const format::ShardEntry& entry) override {
    if (m_context.whole_map_needed.load(std::memory_order_relaxed)) return;
    const format::ObjectView& obj = *entry.object;
    const StandbyDecision decision = decide_standby_entry(entry, m_context.rules);
    if (decision == StandbyDecision::fail) {
      m_context.whole_map_needed = true;  // which failure comes first is the whole map's to say
      return;
    }
    if (decision != StandbyDecision::keep) {
      drops.record(decision, obj);
      return;
    }
    ++objects_loaded;
    const std::uint64_t fingerprint = pair_fingerprint(obj.tenant_id, obj.key);
    fingerprints.add(fingerprint);
    const std::size_t facts_offset = m_facts.size();
    for (const auto& r : obj.replicas) {
      m_facts.push_back(facts_of(r, m_context.endpoints, m_last_segment_id, m_last_endpoint));
    }
    const std::size_t bucket = m_context.lease_bucket(obj.lease_timeout_ms);
    if (bucket < m_context.lease_points.size()) {
      drop_for_lease(obj.tenant_id, obj.size, std::span<const ReplicaFacts>(m_facts).subspan(facts_offset), bucket);
    }
    if (!m_held) {  // the registry fails the validation before any object
      m_facts.resize(facts_offset);
      return;
    }
    Pending& p = m_pending.emplace_back();
    p.tenant = obj.tenant_id;
    p.key = obj.key;
    p.size = obj.size;
    p.fingerprint = fingerprint;
    p.facts_offset = facts_offset;
    p.bucket = bucket;
    if (m_pending.size() == k_pending_objects) hold_pending();
  }

  bool end_shard(const ShardContext& /*shard*/) override {
    hold_pending();
    if (m_held && m_held->ranges.pending() >= k_ranges_per_seal) m_held->ranges.seal();
    return !m_context.whole_map_needed.load();
  }

  // After the scan.
  std::unique_ptr<HeldObjects> take_held() {
    if (m_held) m_held->ranges.seal();
    return std::move(m_held);
  }

  StandbyDropTally drops;
  FingerprintRuns fingerprints;
  std::uint64_t objects_loaded = 0;
  LeaseDrops lease_drops;  // with lease points

 private:
  ScanContext& m_context;
  // A kept object of the shard being read, its views into the shard's bytes.
  struct Pending {
    std::string_view tenant;
    std::string_view key;
    std::uint64_t size = 0;
    std::uint64_t fingerprint = 0;
    std::size_t facts_offset = 0;  // into m_facts, up to the next one's
    std::size_t bucket = 0;        // ScanContext::lease_bucket
  };

  // Every object the bootstrap loads counts, the tail's keys too: a bootstrap at that instant
  // drops it before any replay.
  void drop_for_lease(std::string_view tenant, std::uint64_t size, std::span<const ReplicaFacts> replicas,
                      std::size_t bucket) {
    if (m_last_drops == nullptr || tenant != m_last_drops_tenant) {
      auto it = lease_drops.find(tenant);
      if (it == lease_drops.end()) {
        it = lease_drops.emplace(std::string(tenant), std::vector<SurvivalAmount>(m_context.lease_points.size())).first;
      }
      m_last_drops = &it->second;
      m_last_drops_tenant.assign(tenant);
    }
    std::uint64_t complete_memory = 0;
    for (const ReplicaFacts& r : replicas) {
      complete_memory += r.variant == format::payload_variant::memory && r.status == model::replica_status::complete;
    }
    SurvivalAmount& a = (*m_last_drops)[bucket];
    ++a.objects;
    a.bytes += size;
    a.charged_bytes += util::clamped_mul(size, complete_memory);
  }

  // Holds the pending objects the tail did not decide. Asking the tail about keys in a row lets
  // its filter words and slots load ahead (the filter is too large for the cache when the tail is).
  void hold_pending() {
    const std::size_t count = m_pending.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (i + k_filter_ahead < count) m_context.tail.prefetch_filter(m_pending[i + k_filter_ahead].fingerprint);
      if (i + k_touched_slot_ahead < count)
        m_context.tail.prefetch_touched_slot(m_pending[i + k_touched_slot_ahead].fingerprint);
      const Pending& p = m_pending[i];
      if (m_context.tail.touched(p.tenant, p.key, p.fingerprint)) continue;  // the tail decides this key
      const std::size_t end = i + 1 < count ? m_pending[i + 1].facts_offset : m_facts.size();
      const std::span<const ReplicaFacts> facts(m_facts.data() + p.facts_offset, end - p.facts_offset);
      if (!m_held->add(p.tenant, p.key, p.size, false, facts, p.bucket)) m_context.whole_map_needed = true;
    }
    m_pending.clear();
    m_facts.clear();
  }

  std::unique_ptr<HeldObjects> m_held;
  std::vector<Pending> m_pending;
  std::vector<ReplicaFacts> m_facts;  // the pending objects' replicas
  std::string m_last_segment_id;      // SegmentEndpoints::find_cached
  std::string_view m_last_endpoint;
  std::vector<SurvivalAmount>* m_last_drops = nullptr;  // lease_drops of m_last_drops_tenant
  std::string m_last_drops_tenant;
};

// The bootstrap failed: the standby starts empty and replays from sequence 1 (only the tail).
util::Result<StreamedPromotion> replay_from_one(const std::string& snapshot_id, std::string failure,
                                                const source::OpLogKeySet& keys, const ReplayOptions& replay_options) {
  StreamedPromotion out;
  out.bootstrap.snapshot_id = snapshot_id;
  fail_bootstrap(out.bootstrap, std::move(failure));
  StandbyStore store;
  MQ_ASSIGN_OR_RETURN(out.replay, replay_oplog(keys, store, 0, replay_options));
  out.validation = validate_promotion(store);
  return out;
}

// Whether a re-scoped name lands on another held object: another re-scoped one, a tail object, or
// (by fingerprint, so possibly a false alarm) a snapshot object.
bool names_clash(const std::vector<std::string>& resolved_names, const TailFacts& tail,
                 const FingerprintRuns& fingerprints) {
  std::set<std::string_view> seen;
  std::vector<std::uint64_t> resolved;
  resolved.reserve(resolved_names.size());
  for (const std::string& name : resolved_names) {
    if (!seen.insert(name).second) return true;
    const std::size_t nul = name.find('\0');
    const std::string_view tenant = std::string_view(name).substr(0, nul);
    const std::string_view key = std::string_view(name).substr(nul + 1);
    if (tail.holds(tenant, key)) return true;
    resolved.push_back(pair_fingerprint(tenant, key));
  }
  return fingerprints.contains_any(std::move(resolved));
}

// The promotion's validation and, with lease points, each point's.
struct Verdicts {
  PromotionValidation all;  // every held object (no lease points: the promotion's)
  std::vector<PromotionValidation> points;
};

// The verdicts from the held objects' facts; nullopt when a check fails. With lease points, the
// checks run once over the objects of every bucket: a point holds a subset of them, so when they
// pass, every point passes, and its totals are those of the buckets it still holds.
std::optional<Verdicts> validate(const ScanContext& context, std::vector<std::unique_ptr<StreamWorker>>& workers,
                                 FingerprintRuns& fingerprints, unsigned threads) {
  const PromotionSegments& segments = *context.segments;
  const std::size_t points = context.lease_points.size();
  Verdicts out;
  if (!segments.error().empty()) {
    out.all = failed_validation(segments, segments.error());
    out.points.assign(points, out.all);
    return out;
  }
  HeldObjects held(segments, context.buckets());
  bool tail_ok = true;
  context.tail.for_each_held([&](const TailFacts::HeldObject& o, std::span<const ReplicaFacts> facts) {
    tail_ok = tail_ok && held.add(o.tenant, o.key, o.size, o.placeholder, facts, points);
  });
  if (!tail_ok) return std::nullopt;
  held.ranges.seal();
  for (auto& worker : workers) {
    if (auto part = worker->take_held()) held.absorb(std::move(*part));
  }
  for (std::size_t s = 0; s < segments.size(); ++s) {
    if (held.used[s] > segments.segment(s).capacity) return std::nullopt;
  }
  if (names_clash(held.resolved_names, context.tail, fingerprints)) return std::nullopt;
  if (held.ranges.any_segment_overlaps(threads)) return std::nullopt;
  // Point p holds the buckets after it: summed from the last (never dropped) down.
  PromotionTotals held_at = std::move(held.totals[points]);
  out.points.resize(points);
  for (std::size_t p = points; p-- > 0;) {
    out.points[p] = passed_validation(segments, held_at.copy());
    held_at.merge(std::move(held.totals[p]));
  }
  out.all = passed_validation(segments, std::move(held_at));
  return out;
}

}  // namespace

util::Result<std::optional<StreamedPromotion>> stream_promotion(
    source::ObjectStore& object_store, const std::string& snapshot_dir, const std::string& snapshot_id,
    const source::OpLogKeySet& keys, const RestoreOptions& options, const ReplayOptions& replay_options,
    const std::vector<std::uint64_t>& lease_points) {
  const ReplayOptions replay = replay_options_for(replay_options, options.threads);
  if (!std::is_sorted(lease_points.begin(), lease_points.end())) {
    return util::Status::internal("lease points are not in ascending order");
  }
  ScanContext context;
  context.rules = standby_rules(options);
  context.lease_points = lease_points;
  std::uint64_t last_included_seq = 0;
  ScanOptions scan;
  scan.rules = ReadRules::standby;
  scan.max_payload_bytes = options.max_payload_bytes;
  scan.restore_time_ms = options.restore_time_ms;
  scan.on_descriptor = [&](const model::SnapshotDescriptor& d) { last_included_seq = d.last_included_seq; };
  scan.on_segments = [&](const model::SegmentsPayload& segments) {
    context.endpoints.add(segments);
    add_snapshot_segments(segments, context.tail.registry());
    context.replay = replay_oplog(keys, context.tail, last_included_seq, replay);
    context.segments.emplace(context.tail.registry());
  };
  std::vector<std::unique_ptr<StreamWorker>> workers;
  std::vector<ShardAnalyzer*> analyzers;
  for (unsigned i = 0; i < std::max(1u, options.threads); ++i) {
    workers.push_back(std::make_unique<StreamWorker>(context));
    analyzers.push_back(workers.back().get());
  }
  auto snap = scan_snapshot(object_store, snapshot_dir, snapshot_id, scan, analyzers);
  if (!snap.ok()) {
    MQ_ASSIGN_OR_RETURN(StreamedPromotion failed, replay_from_one(snapshot_id, snap.status().message(), keys, replay));
    return std::optional<StreamedPromotion>(std::move(failed));
  }
  if (context.whole_map_needed || !context.segments) return std::optional<StreamedPromotion>();

  StreamedPromotion out;
  out.bootstrap.snapshot_id = snapshot_id;
  out.bootstrap.loaded = true;
  out.bootstrap.last_included_seq = snap->descriptor->last_included_seq;
  out.bootstrap.created_at_ms = snap->descriptor->created_at_ms;
  out.bootstrap.findings = std::move(snap->findings);
  FingerprintRuns fingerprints;
  StandbyDropTally drops;
  for (auto& worker : workers) {
    out.bootstrap.objects_loaded += worker->objects_loaded;
    drops.merge(std::move(worker->drops));
    for (auto& [tenant, by_point] : worker->lease_drops) {
      auto& sum = out.lease_drops[tenant];
      sum.resize(lease_points.size());
      for (std::size_t p = 0; p < by_point.size(); ++p) sum[p] += by_point[p];
    }
    worker->fingerprints.seal();
    fingerprints.absorb(std::move(worker->fingerprints));
  }
  out.bootstrap.dropped = drops.dropped;
  out.bootstrap.tenants = std::move(drops.tenants);
  // A pair twice fails the bootstrap (then the replay starts from 1): the whole map names it.
  if (fingerprints.has_duplicate(std::max(1u, options.threads))) return std::optional<StreamedPromotion>();
  if (!context.replay.ok()) return context.replay.status();
  out.replay = std::move(context.replay).value();
  std::optional<Verdicts> verdicts = validate(context, workers, fingerprints, std::max(1u, options.threads));
  if (!verdicts) return std::optional<StreamedPromotion>();
  out.validation = std::move(verdicts->all);
  out.point_validations = std::move(verdicts->points);
  return std::optional<StreamedPromotion>(std::move(out));
}

}  // namespace moonquota::restore
