// Findings of `snapshot-inspect verify`: each names the rule it breaks and, for objects, the
// shard, entry index, tenant, key and replica id. A FindingCollector keeps every count but only
// the first `cap` findings of each rule in a deterministic order (shard, entry, replica), so a
// snapshot where every object breaks a rule still verifies in bounded memory.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"

namespace moonquota::inspect {

struct VerifyFinding {
  model::Severity severity = model::Severity::error;
  std::string rule;                    // stable id, e.g. "shard-index", "handle-offset"
  std::optional<std::uint32_t> shard;  // object findings
  std::uint64_t entry = 0;             // entry index inside the decompressed shard
  std::string tenant_id;
  std::string key;
  std::optional<std::uint64_t> replica_id;
  std::string location;  // file-level findings: "segments", "segment 3-4", ...
  std::string message;
};

// A finding about the snapshot or one of its files rather than an object: `location` says where
// ("metadata", "segment 3-4", an object key).
[[nodiscard]] VerifyFinding file_finding(model::Severity severity, std::string rule, std::string location,
                                         std::string message);

// The order findings are printed in: file-level first (by location), then by shard, entry, replica.
[[nodiscard]] bool finding_before(const VerifyFinding& a, const VerifyFinding& b);

struct RuleCount {
  model::Severity severity = model::Severity::info;
  std::uint64_t count = 0;
};

class FindingCollector {
 public:
  explicit FindingCollector(std::size_t cap_per_rule = 1000) : m_cap(cap_per_rule) {}
  void add(VerifyFinding finding);
  // A decoder / restore-model finding under its own rule, or `fallback_rule` when it names none.
  // Its shard field (when set without an entry) places it with that shard's object findings.
  void add_model_finding(const model::Finding& finding, const std::string& fallback_rule);
  void merge(FindingCollector&& other);
  // Every kept finding, sorted; and the per-rule totals (which may exceed what is kept).
  [[nodiscard]] std::vector<VerifyFinding> sorted();
  [[nodiscard]] const std::map<std::string, RuleCount>& counts() const { return m_counts; }
  [[nodiscard]] std::uint64_t count(model::Severity severity) const;

 private:
  void trim(std::vector<VerifyFinding>& kept) const;
  std::size_t m_cap;
  std::map<std::string, RuleCount> m_counts;
  std::map<std::string, std::vector<VerifyFinding>> m_kept;
};

}  // namespace moonquota::inspect
