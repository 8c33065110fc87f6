// 64-bit fingerprints of (tenant, key) pairs: 8 bytes per object, never a key. The streaming
// promotion uses them to prove that no two snapshot objects share a pair (a bootstrap duplicate)
// and that no NUL-scoped key resolves onto another object; a shared fingerprint is not proof of a
// clash (the caller then decides the whole map), so a collision of the hash can cost time, never a
// wrong answer.
//
// They are kept in runs of k_run_length, each partitioned by its values' top k_bucket_bits bits as
// it fills (a counting sort: two passes). A question about a bucket gathers that bucket's slice of
// every run (a few thousand values at 18M objects, cache-resident) into an open-addressing set:
// linear in the fingerprints, where sorting them was not.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace moonquota::restore {

[[nodiscard]] std::uint64_t pair_fingerprint(std::string_view tenant, std::string_view key);

class FingerprintRuns {
 public:
  // A run holds this many fingerprints (8 MiB) before it is partitioned.
  static constexpr std::size_t k_run_length = std::size_t{1} << 20;
  static constexpr unsigned k_bucket_bits = 12;
  static constexpr std::size_t k_buckets = std::size_t{1} << k_bucket_bits;

  void add(std::uint64_t fingerprint);
  // Partitions the run being filled; call before the queries, after the last add.
  void seal();
  // Takes `other`'s runs (both sealed).
  void absorb(FingerprintRuns&& other);

  // Whether any fingerprint occurs twice, across all runs; the buckets are shared among `threads`.
  [[nodiscard]] bool has_duplicate(unsigned threads = 1) const;
  // Whether any of `fingerprints` occurs in the runs.
  [[nodiscard]] bool contains_any(std::vector<std::uint64_t> fingerprints) const;
  [[nodiscard]] bool contains(std::uint64_t fingerprint) const { return contains_any({fingerprint}); }
  [[nodiscard]] std::uint64_t size() const;

 private:
  struct Run {
    std::vector<std::uint64_t> values;
    std::vector<std::uint32_t> bucket_ends;  // empty until partitioned
  };
  static std::size_t bucket_of(std::uint64_t fingerprint) {
    return static_cast<std::size_t>(fingerprint >> (64 - k_bucket_bits));
  }
  static void partition(Run& run);
  // Every run's fingerprints of bucket `bucket`, appended to `out`.
  void gather(std::size_t bucket, std::vector<std::uint64_t>& out) const;

  std::vector<Run> m_runs;
};

}  // namespace moonquota::restore
