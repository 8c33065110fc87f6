#include "restore/range_runs.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <queue>

#include "util/thread_pool.hpp"

namespace moonquota::restore {

namespace {

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads one run back in order.
class RunReader {
 public:
  explicit RunReader(const std::string& run) : m_run(run) {}
  // The next range, false at the end.
  bool next(std::uint64_t& begin, std::uint64_t& end) {
    if (m_pos >= m_run.size()) return false;
    m_begin += varint();
    begin = m_begin;
    end = m_begin + varint();
    return true;
  }

 private:
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(m_run[m_pos++]);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
  }
  const std::string& m_run;
  std::size_t m_pos = 0;
  std::uint64_t m_begin = 0;
};

}  // namespace

void RangeRuns::seal() {
  for (std::size_t s = 0; s < m_pending.size(); ++s) {
    std::vector<Range>& pending = m_pending[s];
    if (pending.empty()) continue;
    std::sort(pending.begin(), pending.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    std::string run;
    run.reserve(pending.size() * 6);
    std::uint64_t previous = 0;
    for (const Range& r : pending) {
      put_varint(run, r.begin - previous);
      put_varint(run, r.end - r.begin);
      previous = r.begin;
    }
    run.shrink_to_fit();
    m_runs[s].push_back(std::move(run));
    pending.clear();
    pending.shrink_to_fit();
  }
  m_pending_count = 0;
}

void RangeRuns::absorb(RangeRuns&& other) {
  for (std::size_t s = 0; s < m_runs.size() && s < other.m_runs.size(); ++s) {
    for (auto& run : other.m_runs[s]) m_runs[s].push_back(std::move(run));
    other.m_runs[s].clear();
  }
}

bool RangeRuns::any_overlap(std::size_t segment) const {
  const std::vector<std::string>& runs = m_runs[segment];
  std::vector<RunReader> readers;
  readers.reserve(runs.size());
  using Head = std::pair<std::pair<std::uint64_t, std::uint64_t>, std::size_t>;  // (begin, end), reader
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (const std::string& run : runs) {
    readers.emplace_back(run);
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    if (readers.back().next(begin, end)) heads.push({{begin, end}, readers.size() - 1});
  }
  // In begin order, a range that begins before the previous one ended overlaps it; with no such
  // neighbours the ranges are a chain of disjoint ones.
  bool first = true;
  std::uint64_t previous_end = 0;
  while (!heads.empty()) {
    const auto [range, reader] = heads.top();
    heads.pop();
    if (!first && range.first < previous_end) return true;
    first = false;
    previous_end = range.second;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    if (readers[reader].next(begin, end)) heads.push({{begin, end}, reader});
  }
  return false;
}

std::uint64_t RangeRuns::encoded_bytes() const {
  std::uint64_t n = 0;
  for (const auto& runs : m_runs) {
    for (const auto& run : runs) n += run.size();
  }
  return n;
}

bool RangeRuns::any_segment_overlaps(unsigned threads) const {
  std::atomic<bool> found{false};
  util::run_indexed(m_runs.size(), std::max(1u, threads), [&](std::size_t segment, unsigned /*worker*/) {
    if (!found.load(std::memory_order_relaxed) && any_overlap(segment)) found = true;
  });
  return found.load();
}

}  // namespace moonquota::restore
