// One-pass replay of an OpLog key set onto a standby store, reproducing a standby that bootstraps
// from the snapshot baseline and then performs the final catch-up (oplog-format.md §11.5):
//   1. expected = last_included_seq + 1
//   2. durable_prefix missing: nothing applied; fatal when a baseline exists (expected - 1 > 0);
//      batches without a prefix are orphans (the new Primary's writer would refuse to start)
//   3. zero prefix: last_seq must be 0; nothing applied
//   4. the terminal batch D20(prefix.batch_id) must exist, decode, and end at prefix.last_seq
//   5. batch keys are range-read after the applied batch id in pages of 1024 keys (key order);
//      malformed keys are skipped; any decode failure or key id != record id is fatal; batches
//      after the first must continue the previous id and sequence; per entry: stop the batch at
//      seq > prefix.last_seq, skip seq < expected, fatal on seq > expected or an applier refusal
//   6. end of poll: a page that was not full while expected <= prefix.last_seq is fatal
// A fatal condition is Status::corruption naming the rule, the batch key and the sequence, and
// says a real standby enters FAILED there. --until-seq stops applying after sequence N.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/oplog_batch.hpp"
#include "model/finding.hpp"
#include "restore/oplog_applier.hpp"
#include "restore/replay_target.hpp"
#include "source/oplog_source.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

struct ReplayOptions {
  std::optional<std::uint64_t> until_seq;
  std::uint32_t page_batches = 1024;  // the reader's range page (max_batches)
  // Decode the next batch on a thread of its own while one is applied (one more thread, the same
  // result): for callers given more than one thread.
  bool decode_ahead = false;
};

// `options` with decode_ahead when a caller has more than one thread.
[[nodiscard]] inline ReplayOptions replay_options_for(ReplayOptions options, unsigned threads) {
  options.decode_ahead = threads > 1;
  return options;
}

struct ReplayResult {
  std::string origin;
  std::optional<format::DurablePrefix> prefix;  // none: no durable_prefix key
  std::uint64_t first_expected = 1;             // last_included_seq + 1
  std::uint64_t applied_seq = 0;                // expected - 1 at the end
  std::uint64_t batches_decoded = 0;
  std::uint64_t entries_seen = 0;
  bool stopped_by_until_seq = false;
  std::uint64_t orphan_batches = 0;  // batch keys above the prefix (never applied)
  ApplyCounters counters;
  model::Findings findings;
};

[[nodiscard]] util::Result<ReplayResult> replay_oplog(const source::OpLogKeySet& keys, ReplayTarget& store,
                                                      std::uint64_t last_included_seq, const ReplayOptions& options);

}  // namespace moonquota::restore
