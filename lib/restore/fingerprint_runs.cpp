#include "restore/fingerprint_runs.hpp"

#include <algorithm>
#include <functional>
#include <queue>

namespace moonquota::restore {

namespace {

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

std::uint64_t pair_fingerprint(std::string_view tenant, std::string_view key) {
  const std::uint64_t t = std::hash<std::string_view>{}(tenant);
  const std::uint64_t k = std::hash<std::string_view>{}(key);
  return mix(k ^ mix(t + 0x9e3779b97f4a7c15ULL));
}

void FingerprintRuns::add(std::uint64_t fingerprint) {
  if (m_runs.empty() || m_runs.back().size() == k_run_length) {
    if (!m_runs.empty()) std::sort(m_runs.back().begin(), m_runs.back().end());
    m_runs.emplace_back();
    m_runs.back().reserve(k_run_length);
  }
  m_runs.back().push_back(fingerprint);
}

void FingerprintRuns::seal() {
  if (m_runs.empty()) return;
  std::vector<std::uint64_t>& last = m_runs.back();
  std::sort(last.begin(), last.end());
  last.shrink_to_fit();
}

void FingerprintRuns::absorb(FingerprintRuns&& other) {
  for (auto& run : other.m_runs) m_runs.push_back(std::move(run));
  other.m_runs.clear();
}

bool FingerprintRuns::has_duplicate() const {
  // A k-way merge of the sorted runs: equal neighbours in merged order.
  using Head = std::pair<std::uint64_t, std::size_t>;  // value, run
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<std::size_t> next(m_runs.size(), 0);
  for (std::size_t r = 0; r < m_runs.size(); ++r) {
    if (!m_runs[r].empty()) heads.emplace(m_runs[r][0], r);
  }
  bool first = true;
  std::uint64_t previous = 0;
  while (!heads.empty()) {
    const auto [value, run] = heads.top();
    heads.pop();
    if (!first && value == previous) return true;
    first = false;
    previous = value;
    const std::vector<std::uint64_t>& v = m_runs[run];
    std::size_t& i = next[run];
    // Within a run, equal neighbours are a duplicate too; take the run's values while they stay
    // below the next head (most of a run at a time when runs barely interleave).
    while (++i < v.size()) {
      if (v[i] == previous) return true;
      if (!heads.empty() && v[i] > heads.top().first) {
        heads.emplace(v[i], run);
        break;
      }
      if (!heads.empty() && v[i] == heads.top().first) return true;
      previous = v[i];
    }
  }
  return false;
}

bool FingerprintRuns::contains(std::uint64_t fingerprint) const {
  return std::any_of(m_runs.begin(), m_runs.end(), [fingerprint](const std::vector<std::uint64_t>& run) {
    return std::binary_search(run.begin(), run.end(), fingerprint);
  });
}

std::uint64_t FingerprintRuns::size() const {
  std::uint64_t n = 0;
  for (const auto& run : m_runs) n += run.size();
  return n;
}

}  // namespace moonquota::restore
