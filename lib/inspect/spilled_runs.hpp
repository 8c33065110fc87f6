// Sorted runs of 64-bit values kept in an anonymous temporary file, and the values repeated
// across them, found by a k-way merge. `verify` stores every shard's sorted replica ids here so
// that finding ids used twice anywhere in a snapshot costs a fixed amount of memory (one read
// buffer per run) instead of 8 bytes per replica.
//
// A run is delta-encoded as LEB128 varints (ids allocated in sequence take 1-3 bytes each). The
// file is created unlinked (O_TMPFILE, or mkstemp + unlink), so nothing is left behind even when
// the process is killed. add_run is thread-safe; a run added again for the same slot with a
// higher sequence replaces the earlier one (the latest duplicate shard blob wins, §5.1).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "util/status.hpp"

namespace moonquota::inspect {

struct RepeatedValues {
  std::map<std::uint64_t, std::set<std::uint32_t>> values;  // value -> slots it occurs in (capped)
  std::uint64_t total = 0;                                  // every repeated value, kept or not
};

class SpilledRuns {
 public:
  // `temp_dir`: where the unlinked file lives (empty: $TMPDIR, else /tmp).
  SpilledRuns(std::uint32_t slots, std::string temp_dir);
  ~SpilledRuns();
  SpilledRuns(const SpilledRuns&) = delete;
  SpilledRuns& operator=(const SpilledRuns&) = delete;

  // `sorted` must be ascending. Returns false when the run was older than the slot's run.
  bool add_run(std::uint32_t slot, std::uint64_t sequence, const std::vector<std::uint64_t>& sorted);

  // The first write or open error, sticky (add_run cannot return one: it runs inside a scan).
  [[nodiscard]] util::Status status() const;
  [[nodiscard]] std::uint64_t bytes_written() const { return m_end; }

  // Values present in two or more runs (or twice in one run when `within_run`), at most
  // `max_kept` of them listed (the smallest); `total` counts them all.
  [[nodiscard]] util::Result<RepeatedValues> repeated(bool within_run, std::size_t max_kept) const;

 private:
  struct Run {
    bool present = false;
    std::uint64_t sequence = 0;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    std::uint64_t count = 0;
  };
  util::Status open_file();

  std::string m_temp_dir;
  mutable std::mutex m_mutex;
  int m_fd = -1;
  util::Status m_status;
  std::uint64_t m_end = 0;
  std::vector<Run> m_runs;
  std::vector<std::uint8_t> m_scratch;
};

}  // namespace moonquota::inspect
