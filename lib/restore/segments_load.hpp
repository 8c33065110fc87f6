// The segments payload of a snapshot read on a thread of its own, so that a restore reads and
// decodes the metadata shards meanwhile (the shards are decoded speculatively: see
// format::SegmentSpeculation). Before, the segments payload was the serial part of every restore
// (overlapping it cut a 2-thread quota-rebuild's wall time by ~9% at 5M objects).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "model/finding.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

class SegmentsLoad {
 public:
  // Runs `load` on a new thread: it fills the caller's segment fields (read by others only after
  // ready() or wait() said the load is over) and appends to the findings it is given.
  using Loader = std::function<util::Status(model::Findings& findings)>;
  explicit SegmentsLoad(Loader load);
  ~SegmentsLoad();  // joins
  SegmentsLoad(const SegmentsLoad&) = delete;
  SegmentsLoad& operator=(const SegmentsLoad&) = delete;

  // Whether the load has finished (successfully or not); never blocks.
  [[nodiscard]] bool ready() const;
  // Blocks until the load has finished; its status.
  [[nodiscard]] util::Status wait();
  // After wait(): the findings of the load, in the order it made them.
  [[nodiscard]] model::Findings take_findings();

 private:
  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  util::Status m_status;
  model::Findings m_findings;
  std::thread m_thread;
};

}  // namespace moonquota::restore
