#include "inspect/verify.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "format/segments_decoder.hpp"
#include "inspect/allocator_check.hpp"
#include "inspect/verify_analyzer.hpp"
#include "source/object_store.hpp"
#include "util/byte_buffer.hpp"

namespace moonquota::inspect {

namespace {

constexpr std::uint32_t k_discarded_slot = util::k_metadata_shards;  // pseudo shard of discarded replicas

struct Occurrence {
  std::uint32_t shard = 0;
  std::uint64_t entry = 0;
  std::string tenant_id;
  std::string key;
};

// Re-reads the shards holding candidates and records where each candidate occurs.
class CandidateCollector final : public format::ShardVisitor {
 public:
  CandidateCollector(const std::unordered_set<std::uint64_t>& keys,
                     const std::map<std::uint64_t, std::set<std::uint32_t>>& ids)
      : m_keys(keys), m_ids(ids) {}
  void on_entry(const format::ShardEntry& entry) override {
    const auto& obj = *entry.object;
    Occurrence where{entry.shard_index, entry.entry_index, std::string(obj.tenant_id), std::string(obj.key)};
    if (m_keys.count(object_key_hash(obj.tenant_id, obj.key)) != 0) {
      key_hits[{where.tenant_id, where.key}].push_back(where);
    }
    if (entry.result->outcome != format::DecodeOutcome::decoded) return;
    std::unordered_set<std::uint64_t> once;
    for (const auto& r : obj.replicas) {
      if (m_ids.count(r.id) != 0 && once.insert(r.id).second) id_hits[r.id].push_back(where);
    }
  }
  std::map<std::pair<std::string, std::string>, std::vector<Occurrence>> key_hits;
  std::map<std::uint64_t, std::vector<Occurrence>> id_hits;

 private:
  const std::unordered_set<std::uint64_t>& m_keys;
  const std::map<std::uint64_t, std::set<std::uint32_t>>& m_ids;
};

util::Status confirm_duplicates(source::ObjectStore& store, const restore::ScannedSnapshot& snap, ShardIdSets& sets,
                                std::size_t max_shard_bytes, const std::vector<std::uint64_t>& discarded_ids,
                                std::size_t max_kept, FindingCollector& out) {
  // A (tenant, key) in two shards has at least one copy outside its documented shard: the
  // candidates are the mis-sharded keys, looked for in their own and their expected shards.
  std::unordered_set<std::uint64_t> keys;
  std::set<std::uint32_t> shards;
  for (std::uint32_t s = 0; s < util::k_metadata_shards; ++s) {
    for (const auto& m : sets.mis_sharded[s]) {
      keys.insert(m.key_hash);
      shards.insert(s);
      shards.insert(m.expected_shard);
    }
  }
  sets.replica_ids.add_run(k_discarded_slot, 0, discarded_ids);
  MQ_ASSIGN_OR_RETURN(RepeatedValues repeated, sets.replica_ids.repeated(true, max_kept));
  const auto& ids = repeated.values;
  if (repeated.total > ids.size()) {
    out.add(file_finding(model::Severity::error, "replica-id-duplicate", "metadata",
                         std::to_string(repeated.total) + " replica ids are used more than once; the first " +
                             std::to_string(ids.size()) + " are located below"));
  }
  if (keys.empty() && ids.empty()) return {};
  for (const auto& [v, where] : ids) shards.insert(where.begin(), where.end());
  shards.erase(k_discarded_slot);
  std::map<std::uint32_t, format::ShardBlobLocation> last_blob;
  for (const auto& blob : snap.metadata.shard_blobs) last_blob[blob.shard_index] = blob;
  CandidateCollector collector(keys, ids);
  util::ByteBuffer compressed;
  util::ByteBuffer raw;
  format::ObjectView view;
  model::Findings ignored;
  const std::string path = source::join_key(snap.snapshot_dir, "metadata");
  for (std::uint32_t s : shards) {
    if (last_blob.count(s) == 0) continue;  // an expected shard the file does not have
    MQ_RETURN_IF_ERROR(restore::read_shard_blob(store, path, last_blob[s], max_shard_bytes, compressed, raw));
    MQ_RETURN_IF_ERROR(format::decode_shard(raw.view(), s, snap.segment_table, view, collector, ignored));
  }
  for (const auto& [tenant_key, hits] : collector.key_hits) {
    std::set<std::uint32_t> in;
    for (const auto& h : hits) in.insert(h.shard);
    if (in.size() < 2) continue;
    for (const auto& h : hits) {
      std::string others;
      for (std::uint32_t s : in) others += s == h.shard ? "" : " " + std::to_string(s);
      out.add({model::Severity::error,
               "duplicate-key-across-shards",
               h.shard,
               h.entry,
               h.tenant_id,
               h.key,
               std::nullopt,
               {},
               "the same (tenant, key) is also in shard" + others + ": both copies are restored and charged"});
    }
  }
  for (const auto& [id, hits] : collector.id_hits) {
    std::uint64_t in_discarded = 0;
    for (std::uint64_t d : discarded_ids) in_discarded += d == id ? 1 : 0;
    if (hits.size() + in_discarded < 2) continue;
    for (const auto& h : hits) {
      out.add({model::Severity::error,
               "replica-id-duplicate",
               h.shard,
               h.entry,
               h.tenant_id,
               h.key,
               id,
               {},
               "replica id " + std::to_string(id) + " is used by " + std::to_string(hits.size() + in_discarded) +
                   " replicas in this snapshot" + (in_discarded > 0 ? " (discarded replicas included)" : "")});
    }
    if (hits.empty()) {
      out.add(
          {model::Severity::error,
           "replica-id-duplicate",
           std::nullopt,
           0,
           {},
           {},
           id,
           "discarded_replicas",
           "replica id " + std::to_string(id) + " is used by " + std::to_string(in_discarded) + " discarded replicas"});
    }
  }
  return {};
}

void check_segment_lists(const model::SegmentsPayload& segments, FindingCollector& out) {
  std::set<std::string> ok_names;
  std::set<std::string> keys;
  for (const auto& s : segments.mounted) {
    keys.insert(s.map_key);
    if (s.status == model::segment_status::ok && s.has_allocator) ok_names.insert(s.name);
    if (s.status < model::segment_status::undefined || s.status > model::segment_status::unmounting) {
      out.add(file_finding(model::Severity::warning, "enum-range", "segment " + s.map_key,
                           "status " + std::to_string(s.status) + " is not a SegmentStatus"));
    }
  }
  for (const auto& name : segments.allocator_names) {
    if (ok_names.count(name) == 0) {
      out.add(file_finding(model::Severity::warning, "segment-names", "segments \"an\"",
                           "name '" + name + "' has no OK segment with an allocator"));
    }
  }
  for (const auto& [client, ids] : segments.client_segments) {
    for (const auto& id : ids) {
      if (keys.count(id) == 0) {
        out.add(file_finding(model::Severity::warning, "client-segments", "segments \"cs\" " + client,
                             "segment " + id + " is not in \"ms\""));
      }
    }
  }
}

void check_tasks(const std::vector<model::TaskRecord>& tasks, FindingCollector& out) {
  for (const auto& t : tasks) {
    if (t.type != model::task_type::replica_copy && t.type != model::task_type::replica_move) {
      out.add(file_finding(model::Severity::warning, "enum-range", "task " + t.id,
                           "type " + std::to_string(t.type) + " is not a TaskType"));
    }
    if (t.status < model::task_status::pending || t.status > model::task_status::success) {
      out.add(file_finding(model::Severity::warning, "enum-range", "task " + t.id,
                           "status " + std::to_string(t.status) + " is not a TaskStatus"));
    }
  }
}

// The rule of a decoder or restore-model finding that names none of its own.
std::string default_rule(const model::Finding& f) { return std::string("decoder-") + model::severity_name(f.severity); }

}  // namespace

util::Result<VerifyResult> verify_snapshot(source::ObjectStore& store, const std::string& snapshot_dir,
                                           const std::string& snapshot_id, const VerifyOptions& options,
                                           const model::Findings& catalog_findings) {
  // Segments are decoded twice: once here for the node tables (compacted piece by piece as they
  // are decompressed: no table is ever held whole), once by the scan without them.
  restore::ScanOptions header_options = options.scan;
  std::vector<CompactNodeTable> node_tables;
  std::optional<NodeTableCompactor> compactor;
  header_options.on_node_records = [&node_tables, &compactor](std::string_view records, std::uint64_t first_node,
                                                              std::uint64_t nodes) {
    if (first_node == 0) compactor.emplace(static_cast<std::size_t>(nodes));
    compactor->add(records);
    if (first_node + records.size() / 25 == nodes) {
      node_tables.push_back(compactor->finish());
      compactor.reset();
    }
  };
  header_options.decode_shards = false;
  header_options.decode_tasks = false;
  MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot header,
                      restore::scan_snapshot(store, snapshot_dir, snapshot_id, header_options, {}));
  AllocatorIndex allocators(header.segments, std::move(node_tables));
  header = restore::ScannedSnapshot();

  ShardIdSets sets(options.temp_dir);
  const unsigned threads = std::max(1u, options.threads);
  std::vector<std::unique_ptr<VerifyAnalyzer>> analyzers;
  std::vector<restore::ShardAnalyzer*> pointers;
  for (unsigned i = 0; i < threads; ++i) {
    analyzers.push_back(std::make_unique<VerifyAnalyzer>(allocators, sets, options.findings_per_rule));
    pointers.push_back(analyzers.back().get());
  }
  restore::ScanOptions scan_options = options.scan;
  scan_options.keep_allocator_blobs = false;
  MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot snap,
                      restore::scan_snapshot(store, snapshot_dir, snapshot_id, scan_options, pointers));
  MQ_RETURN_IF_ERROR(sets.replica_ids.status());

  VerifyResult result{std::move(snap), FindingCollector(options.findings_per_rule), {}, 0, 0, std::nullopt};
  FindingCollector& out = result.findings;
  for (auto& a : analyzers) {
    result.max_replica_id = std::max(result.max_replica_id, a->max_replica_id());
    out.merge(std::move(a->findings()));
  }
  for (const auto& f : catalog_findings) out.add_model_finding(f, "catalog");
  for (const auto& f : result.snapshot.findings) out.add_model_finding(f, default_rule(f));

  std::vector<std::uint64_t> discarded_ids;
  for (std::size_t i = 0; i < result.snapshot.metadata.discarded.size(); ++i) {
    const auto& item = result.snapshot.metadata.discarded[i];
    for (const auto& r : item.replicas) {
      discarded_ids.push_back(r.id);
      result.max_replica_id = std::max(result.max_replica_id, r.id);
      if (r.type != model::replica_type::memory) continue;
      format::ReplicaView view;
      view.id = r.id;
      view.type = r.type;
      view.status = r.status;
      view.mem_size = r.memory.size;
      view.mem_address = r.memory.buffer_address;
      view.segment_id = r.memory.segment_id;
      view.has_offset_handle = r.memory.has_offset_handle;
      view.handle = r.memory.handle;
      VerifyFinding proto;
      proto.location = "discarded_replicas[" + std::to_string(i) + "]";
      allocators.check_replica(view, std::nullopt, proto, out);
    }
  }
  std::sort(discarded_ids.begin(), discarded_ids.end());
  allocators.check_totals(out);
  MQ_RETURN_IF_ERROR(confirm_duplicates(store, result.snapshot, sets, options.scan.max_payload_bytes, discarded_ids,
                                        options.findings_per_rule, out));
  if (result.max_replica_id > 0 && result.snapshot.metadata.replica_next_id <= result.max_replica_id) {
    out.add(file_finding(model::Severity::error, "replica-next-id", "metadata",
                         "replica_next_id " + std::to_string(result.snapshot.metadata.replica_next_id) +
                             " is not above the largest replica id " + std::to_string(result.max_replica_id) +
                             ": new replicas would reuse ids"));
  }
  check_segment_lists(result.snapshot.segments, out);
  check_tasks(result.snapshot.tasks, out);
  if (result.snapshot.master_rejection) {
    out.add(file_finding(model::Severity::error, "master-rejects", "snapshot", *result.snapshot.master_rejection));
  }
  std::vector<std::string> keys;
  for (const auto& f : result.snapshot.files) {
    if (f.present) keys.push_back(source::join_key(result.snapshot.snapshot_dir, f.name));
  }
  result.checksums = check_object_checksums(store, keys, out);
  result.spilled_bytes = sets.replica_ids.bytes_written();
  result.listed = out.sorted();
  return result;
}

}  // namespace moonquota::inspect
