// The metadata phase of restore::scan_snapshot: the handler every worker of format::scan_metadata
// runs on one shard blob (the restore model of the shard, the caller's analyzer, the speculative
// decode while the segments payload is still being loaded) and, once every blob is read, the
// merge of the last blob of each shard index into the snapshot ("the last duplicate shard wins").
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "format/canonical_entry.hpp"
#include "format/object_decoder.hpp"
#include "model/finding.hpp"
#include "restore/segments_load.hpp"
#include "restore/shard_tally.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

class ShardScan {
 public:
  // `table` is the snapshot's segment table: complete, or being loaded by `segments_load` (the
  // overlap; null without it). With `speculate_every_shard` (tests) every shard is decoded
  // speculatively, also once the table is known.
  ShardScan(const ScanOptions& options, const std::vector<ShardAnalyzer*>& analyzers, const format::SegmentTable& table,
            SegmentsLoad* segments_load, bool speculate_every_shard);

  // format::ShardHandler: decodes one blob on `worker`. An error stops the scan.
  [[nodiscard]] util::Status decode(unsigned worker, std::uint32_t shard, std::uint64_t sequence,
                                    std::string_view bytes);
  // Waits for the overlapped segments load; fails (only to stop the scan) when it failed.
  [[nodiscard]] util::Status await_segments();
  // An analyzer asked to stop.
  [[nodiscard]] bool stopped() const { return m_stop.load(); }
  // Whether every speculative decode holds under the segment table now known.
  [[nodiscard]] bool speculation_holds(const format::SegmentTable& table) const;
  [[nodiscard]] ScannedSnapshot::Overlap overlap(bool read_again) const;
  // The entries seen, the workers' findings and the winning blob's tally of each shard index,
  // into `snap`; the duplicate shard finding under the restore model. After the scan.
  void merge_into(ScannedSnapshot& snap);

 private:
  struct Slot {
    std::uint64_t sequence = 0;
    ShardTally tally;
  };

  const ScanOptions& m_options;
  const std::vector<ShardAnalyzer*>& m_analyzers;
  const format::SegmentTable& m_table;
  SegmentsLoad* m_segments_load;
  bool m_speculate_every_shard;
  bool m_restore_model;
  std::vector<format::ObjectView> m_views;
  std::vector<ShardTallyBuilder> m_builders;
  std::vector<model::Findings> m_findings;
  std::vector<format::SegmentSpeculation> m_speculations;
  std::vector<std::optional<Slot>> m_slots;
  std::mutex m_mutex;
  std::atomic<bool> m_stop{false};
  std::atomic<std::uint64_t> m_shards_done{0};
  std::atomic<std::uint64_t> m_entries{0};
  std::atomic<std::uint64_t> m_speculative_shards{0};
  std::atomic<std::uint64_t> m_redecoded_shards{0};
};

}  // namespace moonquota::restore
