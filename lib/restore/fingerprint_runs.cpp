#include "restore/fingerprint_runs.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <utility>

#include "util/thread_pool.hpp"

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

// An open-addressing set of fingerprints, reused bucket after bucket (0 marks a free place, so
// the value 0 is tracked apart).
class FingerprintSet {
 public:
  void reset(std::size_t expected) {
    const std::size_t size = std::bit_ceil(std::max<std::size_t>(16, expected * 2));
    m_slots.assign(size, 0);
    m_shift = 64 - static_cast<unsigned>(std::countr_zero(size));
    m_has_zero = false;
  }
  // false: `value` was there already.
  bool insert(std::uint64_t value) {
    if (value == 0) return !std::exchange(m_has_zero, true);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = place(value);; i = (i + 1) & mask) {
      if (m_slots[i] == value) return false;
      if (m_slots[i] == 0) {
        m_slots[i] = value;
        return true;
      }
    }
  }
  [[nodiscard]] bool contains(std::uint64_t value) const {
    if (value == 0) return m_has_zero;
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = place(value);; i = (i + 1) & mask) {
      if (m_slots[i] == value) return true;
      if (m_slots[i] == 0) return false;
    }
  }

 private:
  // The bucket's values share their top bits: the place comes from all of them, multiplied.
  [[nodiscard]] std::size_t place(std::uint64_t value) const {
    return static_cast<std::size_t>((value * 0x9E3779B97F4A7C15ULL) >> m_shift);
  }
  std::vector<std::uint64_t> m_slots;
  unsigned m_shift = 60;
  bool m_has_zero = false;
};

}  // namespace

std::uint64_t pair_fingerprint(std::string_view tenant, std::string_view key) {
  const std::uint64_t t = std::hash<std::string_view>{}(tenant);
  const std::uint64_t k = std::hash<std::string_view>{}(key);
  return mix(k ^ mix(t + 0x9e3779b97f4a7c15ULL));
}

void FingerprintRuns::partition(Run& run) {
  run.bucket_ends.assign(k_buckets, 0);
  for (const std::uint64_t v : run.values) ++run.bucket_ends[bucket_of(v)];
  std::uint32_t end = 0;
  for (std::uint32_t& e : run.bucket_ends) e = end += e;
  std::vector<std::uint64_t> placed(run.values.size());
  std::vector<std::uint32_t> next(k_buckets);
  for (std::size_t b = 0; b < k_buckets; ++b) next[b] = b == 0 ? 0 : run.bucket_ends[b - 1];
  for (const std::uint64_t v : run.values) placed[next[bucket_of(v)]++] = v;
  run.values.swap(placed);
}

void FingerprintRuns::add(std::uint64_t fingerprint) {
  if (m_runs.empty() || !m_runs.back().bucket_ends.empty() || m_runs.back().values.size() == k_run_length) {
    if (!m_runs.empty() && m_runs.back().bucket_ends.empty()) partition(m_runs.back());
    m_runs.emplace_back();
    m_runs.back().values.reserve(k_run_length);
  }
  m_runs.back().values.push_back(fingerprint);
}

void FingerprintRuns::seal() {
  if (m_runs.empty() || !m_runs.back().bucket_ends.empty()) return;
  partition(m_runs.back());
}

void FingerprintRuns::absorb(FingerprintRuns&& other) {
  for (auto& run : other.m_runs) m_runs.push_back(std::move(run));
  other.m_runs.clear();
}

void FingerprintRuns::gather(std::size_t bucket, std::vector<std::uint64_t>& out) const {
  for (const Run& run : m_runs) {
    const std::uint32_t begin = bucket == 0 ? 0 : run.bucket_ends[bucket - 1];
    out.insert(out.end(), run.values.begin() + begin, run.values.begin() + run.bucket_ends[bucket]);
  }
}

bool FingerprintRuns::has_duplicate(unsigned threads) const {
  threads = std::max(1u, threads);
  std::atomic<bool> found{false};
  std::vector<std::vector<std::uint64_t>> values(threads);
  std::vector<FingerprintSet> sets(threads);
  util::run_indexed(k_buckets, threads, [&](std::size_t bucket, unsigned worker) {
    if (found.load(std::memory_order_relaxed)) return;
    std::vector<std::uint64_t>& mine = values[worker];
    mine.clear();
    gather(bucket, mine);
    FingerprintSet& set = sets[worker];
    set.reset(mine.size());
    for (const std::uint64_t v : mine) {
      if (!set.insert(v)) {
        found = true;
        return;
      }
    }
  });
  return found.load();
}

bool FingerprintRuns::contains_any(std::vector<std::uint64_t> fingerprints) const {
  std::sort(fingerprints.begin(), fingerprints.end());  // by bucket, then by value
  std::vector<std::uint64_t> values;
  FingerprintSet set;
  for (std::size_t i = 0; i < fingerprints.size();) {
    const std::size_t bucket = bucket_of(fingerprints[i]);
    values.clear();
    gather(bucket, values);
    set.reset(values.size());
    for (const std::uint64_t v : values) (void)set.insert(v);
    for (; i < fingerprints.size() && bucket_of(fingerprints[i]) == bucket; ++i) {
      if (set.contains(fingerprints[i])) return true;
    }
  }
  return false;
}

std::uint64_t FingerprintRuns::size() const {
  std::uint64_t n = 0;
  for (const auto& run : m_runs) n += run.values.size();
  return n;
}

}  // namespace moonquota::restore
