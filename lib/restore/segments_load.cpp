#include "restore/segments_load.hpp"

#include <utility>

namespace moonquota::restore {

SegmentsLoad::SegmentsLoad(Loader load) {
  m_thread = std::thread([this, load = std::move(load)] {
    model::Findings findings;
    util::Status status = load(findings);
    std::lock_guard lock(m_mutex);
    m_findings = std::move(findings);
    m_status = std::move(status);
    m_done = true;
    m_cv.notify_all();
  });
}

SegmentsLoad::~SegmentsLoad() {
  if (m_thread.joinable()) m_thread.join();
}

bool SegmentsLoad::ready() const {
  std::lock_guard lock(m_mutex);
  return m_done;
}

util::Status SegmentsLoad::wait() {
  std::unique_lock lock(m_mutex);
  m_cv.wait(lock, [&] { return m_done; });
  return m_status;
}

model::Findings SegmentsLoad::take_findings() {
  std::lock_guard lock(m_mutex);
  return std::move(m_findings);
}

}  // namespace moonquota::restore
