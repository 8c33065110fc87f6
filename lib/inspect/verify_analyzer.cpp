#include "inspect/verify_analyzer.hpp"

#include <algorithm>

#include "format/msgpack_reader.hpp"
#include "model/tenant_id.hpp"

namespace moonquota::inspect {

std::uint64_t object_key_hash(std::string_view tenant_id, std::string_view key) {
  return util::boost174_hash_combine(util::libstdcxx_string_hash(tenant_id), key);
}

void VerifyAnalyzer::begin_shard(const restore::ShardContext& shard) {
  m_mis_sharded.clear();
  m_replica_ids.clear();
  check_encodings(shard);
}

// §4.2: values are what matters to the master, but a non-smallest integer or length breaks
// byte equality with Mooncake's writer. One info finding per shard.
void VerifyAnalyzer::check_encodings(const restore::ShardContext& shard) {
  format::MsgpackReader reader(shard.decompressed);
  std::uint64_t count = 0;
  std::size_t first = 0;
  format::MpHeader h;
  while (!reader.at_end() && reader.read_header(h)) {
    if (!h.smallest && count++ == 0) first = h.offset;
    if (h.type == format::MpType::str || h.type == format::MpType::bin || h.type == format::MpType::ext) {
      std::string_view payload;
      if (!reader.read_payload(h.length, payload)) break;
    }
  }
  if (count == 0) return;
  VerifyFinding f;
  f.severity = model::Severity::info;
  f.rule = "integer-encoding";
  f.shard = shard.shard_index;
  f.message = std::to_string(count) + " integers or lengths use a wider msgpack format than needed (first at byte " +
              "offset " + std::to_string(first) + " of the decompressed shard)";
  m_findings.add(std::move(f));
}

void VerifyAnalyzer::on_entry(const format::ShardEntry& entry) {
  const format::ObjectView& obj = *entry.object;
  VerifyFinding proto;
  proto.shard = entry.shard_index;
  proto.entry = entry.entry_index;
  proto.tenant_id = std::string(obj.tenant_id);
  proto.key = std::string(obj.key);
  auto add = [&](model::Severity severity, const char* rule, std::string message,
                 std::optional<std::uint64_t> replica = std::nullopt) {
    VerifyFinding f = proto;
    f.severity = severity;
    f.rule = rule;
    f.replica_id = replica;
    f.message = std::move(message);
    m_findings.add(std::move(f));
  };
  // A skipped object is reported by the shard decoder with its reason (rule "skipped-object").
  if (entry.result->outcome != format::DecodeOutcome::decoded) return;
  if (obj.layout_version != 4 && obj.layout_version != 5) {
    add(model::Severity::info, "legacy-layout",
        "ObjectMetadata layout v" + std::to_string(obj.layout_version) + " (the current writer emits v4/v5)");
  }
  const std::uint32_t expected = util::metadata_shard_index(obj.tenant_id, obj.key, obj.group_id);
  if (expected != entry.shard_index) {
    m_mis_sharded.push_back({object_key_hash(obj.tenant_id, obj.key), expected});
    const bool boost_dependent = obj.group_id.empty() && obj.tenant_id != model::k_default_tenant;
    std::string why = !obj.group_id.empty() ? "std::hash(group_id) % 1024"
                      : boost_dependent     ? "Boost 1.74 hash_combine(std::hash(tenant), key) % 1024, x86-64 signed "
                                              "char; a master built with another Boost may differ"
                                            : "std::hash(key) % 1024";
    add(boost_dependent ? model::Severity::warning : model::Severity::error,
        boost_dependent ? "shard-index-boost" : "shard-index",
        "stored in shard " + std::to_string(entry.shard_index) + " but the documented hash gives shard " +
            std::to_string(expected) + " (" + why + "): restored and charged, but never found by lookups");
  }
  m_object_ids.clear();
  for (const auto& r : obj.replicas) {
    m_max_replica_id = std::max(m_max_replica_id, r.id);
    if (r.id == 0) add(model::Severity::error, "replica-id-zero", "replica id 0 (ids start at 1)", r.id);
    if (std::find(m_object_ids.begin(), m_object_ids.end(), r.id) != m_object_ids.end()) {
      add(model::Severity::error, "replica-id-duplicate", "replica id used twice in this object", r.id);
    } else {
      m_object_ids.push_back(r.id);
    }
    if (r.status < model::replica_status::undefined || r.status > model::replica_status::failed) {
      add(model::Severity::warning, "enum-range",
          "replica status " + std::to_string(r.status) + " is not a ReplicaStatus", r.id);
    }
    if (r.type == model::replica_type::memory) {
      m_allocators.check_replica(r, obj.size, proto, m_findings);
    } else if (r.object_size != obj.size && r.type != model::replica_type::dfs) {
      add(model::Severity::warning, "object-size",
          std::string(model::replica_type::name(r.type)) + " object_size " + std::to_string(r.object_size) +
              " differs from the object size " + std::to_string(obj.size),
          r.id);
    }
  }
  m_replica_ids.insert(m_replica_ids.end(), m_object_ids.begin(), m_object_ids.end());
}

bool VerifyAnalyzer::end_shard(const restore::ShardContext& shard) {
  std::sort(m_replica_ids.begin(), m_replica_ids.end());
  const std::uint32_t s = shard.shard_index;
  m_sets.replica_ids.add_run(s, shard.sequence, m_replica_ids);
  std::lock_guard lock(m_sets.mutex);
  if (m_sets.present[s] && m_sets.sequence[s] > shard.sequence) return true;  // a later duplicate already won
  m_sets.present[s] = true;
  m_sets.sequence[s] = shard.sequence;
  m_sets.mis_sharded[s].swap(m_mis_sharded);
  return true;
}

}  // namespace moonquota::inspect
