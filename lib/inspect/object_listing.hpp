// Object listings for `objects` and `dump`: every entry that passes an ObjectFilter, as an owned
// record, delivered to a sink in a deterministic order (shard blobs in file order, entries in
// file order inside a shard) whatever the thread count. Memory: the matches of the shards in
// flight (at most about 3 x threads shards), never the whole snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "restore/snapshot_reader.hpp"

namespace moonquota::inspect {

struct ObjectFilter {
  std::optional<std::string> tenant_id;
  std::string key_prefix;
  std::optional<std::int8_t> replica_type;  // some replica has this type
  std::optional<std::int16_t> status;       // some replica has this status
  std::uint64_t min_size = 0;
  std::optional<std::string> group_id;  // "" matches ungrouped objects
  bool include_skipped = true;          // entries the master skips (only tenant/key known)

  [[nodiscard]] bool matches(const format::ShardEntry& entry) const;
};

struct ListedObject {
  std::uint32_t shard = 0;
  std::uint64_t entry_index = 0;
  std::uint64_t sequence = 0;  // the shard blob's position in the file
  bool skipped = false;
  std::string skip_reason;
  model::ObjectRecord record;  // tenant_id and key always; the rest when decoded
};

// Called in order, on one thread at a time.
using ObjectSink = std::function<void(const ListedObject&)>;

// Delivers matches in blob-sequence order; stops the scan once `limit` objects went out.
class OrderedObjectEmitter {
 public:
  OrderedObjectEmitter(ObjectSink sink, std::uint64_t limit) : m_sink(std::move(sink)), m_limit(limit) {}
  // Hands over the matches of one shard blob; false once the limit is reached.
  bool deliver(std::uint64_t sequence, std::vector<ListedObject> objects);
  [[nodiscard]] std::uint64_t emitted() const { return m_emitted; }
  [[nodiscard]] bool limit_reached() const { return m_limit != 0 && m_emitted >= m_limit; }

 private:
  std::mutex m_mutex;
  ObjectSink m_sink;
  std::uint64_t m_limit;
  std::uint64_t m_next = 0;
  std::uint64_t m_emitted = 0;
  std::map<std::uint64_t, std::vector<ListedObject>> m_waiting;
};

class ListingAnalyzer final : public restore::ShardAnalyzer {
 public:
  ListingAnalyzer(const ObjectFilter& filter, OrderedObjectEmitter& emitter) : m_filter(filter), m_emitter(emitter) {}
  void begin_shard(const restore::ShardContext& shard) override;
  void on_entry(const format::ShardEntry& entry) override;
  bool end_shard(const restore::ShardContext& shard) override;

 private:
  const ObjectFilter& m_filter;
  OrderedObjectEmitter& m_emitter;
  std::vector<ListedObject> m_matches;
};

struct ListingResult {
  restore::ScannedSnapshot snapshot;
  std::uint64_t listed = 0;
  bool truncated = false;  // the limit stopped the listing
};

// `limit` 0 = no limit. The sink runs while the scan is in progress.
[[nodiscard]] util::Result<ListingResult> list_objects(source::ObjectStore& store, const std::string& snapshot_dir,
                                                       const std::string& snapshot_id,
                                                       const restore::ScanOptions& options, const ObjectFilter& filter,
                                                       std::uint64_t limit, unsigned threads, ObjectSink sink);

}  // namespace moonquota::inspect
