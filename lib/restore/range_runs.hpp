// The memory ranges [begin, end) that count against each segment, kept as sorted, delta-encoded
// runs (a few bytes per range instead of the range and its owner's name), so the streaming
// promotion can tell whether any two ranges of a segment overlap without holding every object.
// Which two ranges to name is left to the whole-map validation (its std::sort decides which of two
// ranges that begin together is named).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moonquota::restore {

class RangeRuns {
 public:
  explicit RangeRuns(std::size_t segments) : m_pending(segments), m_runs(segments) {}

  void add(std::size_t segment, std::uint64_t begin, std::uint64_t end) {
    m_pending[segment].push_back({begin, end});
    ++m_pending_count;
  }
  // Ranges added since the last seal.
  [[nodiscard]] std::size_t pending() const { return m_pending_count; }
  // Sorts and encodes what was added since the last seal into one run per segment.
  void seal();
  // Takes `other`'s runs (both sealed, same segment count).
  void absorb(RangeRuns&& other);

  // Whether two ranges of `segment` overlap (some range begins before another that begins no
  // later has ended), across all runs.
  [[nodiscard]] bool any_overlap(std::size_t segment) const;
  // Whether that holds of any segment; the segments are shared among `threads`.
  [[nodiscard]] bool any_segment_overlaps(unsigned threads) const;
  [[nodiscard]] std::uint64_t encoded_bytes() const;

 private:
  struct Range {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
  };
  std::vector<std::vector<Range>> m_pending;  // per segment
  std::size_t m_pending_count = 0;
  std::vector<std::vector<std::string>> m_runs;  // per segment: varint (begin delta, length) pairs
};

}  // namespace moonquota::restore
