#include "forge/large_tail.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "forge/large_store_mix.hpp"
#include "format/oplog_batch.hpp"
#include "format/oplog_payloads.hpp"
#include "source/oplog_keys.hpp"

namespace moonquota::forge {

namespace {

constexpr std::uint64_t k_tail_segment_capacity = std::uint64_t{1} << 40;  // 1 TiB
constexpr std::uint64_t k_tail_replica_ids = std::uint64_t{1} << 40;       // above any store's ids

class TailWriter {
 public:
  TailWriter(const LargeStoreOptions& store, const LargeTailOptions& tail)
      : m_store(store),
        m_tail(tail),
        m_mix(store.seed, store.tenants, store.clients, static_cast<std::uint64_t>(k_large_store_created_at_ms)),
        m_root(source::oplog_root(store.cluster_id).value_or("/oplog/mooncake_cluster/")),
        m_state(0x9E3779B97F4A7C15ULL ^ (store.seed * 0xff51afd7ed558ccdULL)) {
    m_out.cluster_id = store.cluster_id;
  }

  ForgedOpLog run() {
    mount();
    seal();  // a real writer's first batch holds exactly one entry
    std::string key;
    for (std::uint64_t i = 0; m_seq <= m_tail.entries; ++i) {
      const std::uint64_t pick = next() % 100;
      const std::uint64_t j = m_store.objects == 0 ? 0 : next() % m_store.objects;
      if (pick < 45 || m_store.objects == 0) {
        const large::PlannedObject sized = m_mix.plan(j);
        std::uint32_t tenant = 0;
        m_mix.identity(next() % std::max<std::uint64_t>(1, m_store.objects), tenant, key);
        put(m_mix.tenant_name(tenant), m_mix.tenant_name(tenant) + "/tail/obj-" + std::to_string(i),
            std::max<std::uint64_t>(1, sized.size));
        continue;
      }
      std::uint32_t tenant = 0;
      m_mix.identity(j, tenant, key);
      if (pick < 70) {
        const std::uint64_t size = m_mix.plan(j).size;
        put(m_mix.tenant_name(tenant), key, std::max<std::uint64_t>(1, next() % 2 == 0 ? size * 2 : size / 2));
      } else if (pick < 90) {
        push({0, format::op_type::remove, m_mix.tenant_name(tenant), key, std::string()});
      } else {
        put(m_mix.tenant_name(tenant), key, std::max<std::uint64_t>(1, m_mix.plan(j).size));
      }
    }
    seal();
    m_out.kvs.push_back({m_root + "durable_prefix", format::encode_durable_prefix({m_batch_id - 1, m_seq - 1})});
    m_out.entries = m_seq - 1;
    std::sort(m_out.kvs.begin(), m_out.kvs.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    return std::move(m_out);
  }

 private:
  std::uint64_t next() {
    m_state ^= m_state << 13;
    m_state ^= m_state >> 7;
    m_state ^= m_state << 17;
    return m_state;
  }

  [[nodiscard]] std::string endpoint() const { return "10.250.0." + std::to_string(m_segments) + ":17812"; }

  void mount() {
    ++m_segments;
    m_used = 0;
    const std::string name = "tail-seg-" + std::to_string(m_segments);
    push({0, format::op_type::segment_mount, "default", endpoint(),
          format::encode_segment_mount({name, endpoint(), k_tail_segment_capacity, true, ""},
                                       format::PayloadForm::compact)});
  }

  void put(const std::string& tenant, const std::string& key, std::uint64_t size) {
    if (size > k_tail_segment_capacity - m_used) mount();
    if (m_seq > m_tail.entries) return;  // the mount took the last sequence
    format::MetadataPayload p;
    p.client_first = 0x7a11;
    p.client_second = m_segments;
    p.size = size;
    format::PayloadReplica r;
    r.id = k_tail_replica_ids + m_seq;
    r.buffer_size = size;
    r.buffer_address = (std::uint64_t{0x7f} << 40) * m_segments + m_used;
    r.protocol = "tcp";
    r.transport_endpoint = endpoint();
    r.status = 3;  // COMPLETE
    p.replicas.push_back(std::move(r));
    p.group_id = "";
    p.data_type = 1;
    p.hard_pinned = false;
    m_used += size;
    push({0, format::op_type::put_end, tenant, key, format::encode_metadata_payload(p, format::PayloadForm::compact)});
  }

  void push(format::OpLogEntry entry) {
    m_batch.push_back(std::move(entry));
    ++m_seq;
    if (m_batch.size() >= m_tail.entries_per_batch) seal();
  }

  void seal() {
    if (m_batch.empty()) return;
    m_out.kvs.push_back({m_root + "batches/" + source::d20(m_batch_id),
                         format::encode_batch_record(m_batch_id, m_seq - m_batch.size(), m_batch)});
    ++m_batch_id;
    m_batch.clear();
  }

  const LargeStoreOptions& m_store;
  const LargeTailOptions& m_tail;
  large::ObjectMix m_mix;
  std::string m_root;
  std::uint64_t m_state;
  ForgedOpLog m_out;
  std::vector<format::OpLogEntry> m_batch;
  std::uint64_t m_seq = 1;
  std::uint64_t m_batch_id = 1;
  std::uint32_t m_segments = 0;
  std::uint64_t m_used = 0;
};

}  // namespace

ForgedOpLog continue_large_store(const LargeStoreOptions& store, const LargeTailOptions& tail) {
  return TailWriter(store, tail).run();
}

}  // namespace moonquota::forge
