// 64-bit fingerprints of (tenant, key) pairs, kept as sorted runs: 8 bytes per object, never a
// key. The streaming promotion uses them to prove that no two snapshot objects share a pair (a
// bootstrap duplicate) and that no NUL-scoped key resolves onto another object; a shared
// fingerprint is not proof of a clash (the caller then decides the whole map), so a collision of
// the hash can cost time, never a wrong answer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace moonquota::restore {

[[nodiscard]] std::uint64_t pair_fingerprint(std::string_view tenant, std::string_view key);

class FingerprintRuns {
 public:
  // Runs of this many fingerprints are sorted as they fill (8 MiB each).
  static constexpr std::size_t k_run_length = std::size_t{1} << 20;

  void add(std::uint64_t fingerprint);
  // Sorts the run being filled; call before the queries, after the last add.
  void seal();
  // Takes `other`'s runs (both sealed).
  void absorb(FingerprintRuns&& other);

  // Whether any fingerprint occurs twice, across all runs.
  [[nodiscard]] bool has_duplicate() const;
  [[nodiscard]] bool contains(std::uint64_t fingerprint) const;
  [[nodiscard]] std::uint64_t size() const;

 private:
  std::vector<std::vector<std::uint64_t>> m_runs;
};

}  // namespace moonquota::restore
