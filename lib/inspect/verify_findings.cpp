#include "inspect/verify_findings.hpp"

#include <algorithm>
#include <tuple>

namespace moonquota::inspect {

VerifyFinding file_finding(model::Severity severity, std::string rule, std::string location, std::string message) {
  VerifyFinding f;
  f.severity = severity;
  f.rule = std::move(rule);
  f.location = std::move(location);
  f.message = std::move(message);
  return f;
}

bool finding_before(const VerifyFinding& a, const VerifyFinding& b) {
  if (a.shard.has_value() != b.shard.has_value()) return !a.shard.has_value();
  const std::uint64_t ra = a.replica_id.value_or(0);
  const std::uint64_t rb = b.replica_id.value_or(0);
  return std::tie(a.shard, a.entry, ra, a.location, a.rule, a.message) <
         std::tie(b.shard, b.entry, rb, b.location, b.rule, b.message);
}

void FindingCollector::trim(std::vector<VerifyFinding>& kept) const {
  std::sort(kept.begin(), kept.end(), finding_before);
  if (kept.size() > m_cap) kept.resize(m_cap);
}

void FindingCollector::add(VerifyFinding finding) {
  RuleCount& count = m_counts[finding.rule];
  count.severity = std::max(count.severity, finding.severity);
  ++count.count;
  auto& kept = m_kept[finding.rule];
  kept.push_back(std::move(finding));
  if (kept.size() >= 2 * m_cap + 16) trim(kept);  // amortised: keeps the cap smallest
}

void FindingCollector::add_model_finding(const model::Finding& finding, const std::string& fallback_rule) {
  VerifyFinding f;
  f.severity = finding.severity;
  f.rule = finding.rule.empty() ? fallback_rule : finding.rule;
  f.message = finding.message;
  // A finding about a whole shard sorts with that shard's object findings (as entry 0); one about
  // an entry, or about no shard, keeps its location text.
  if (finding.shard && !finding.entry) {
    f.shard = finding.shard;
  } else {
    f.location = finding.location;
  }
  add(std::move(f));
}

void FindingCollector::merge(FindingCollector&& other) {
  for (auto& [rule, count] : other.m_counts) {
    RuleCount& mine = m_counts[rule];
    mine.severity = std::max(mine.severity, count.severity);
    mine.count += count.count;
  }
  for (auto& [rule, kept] : other.m_kept) {
    auto& mine = m_kept[rule];
    for (auto& f : kept) mine.push_back(std::move(f));
    trim(mine);
  }
  other.m_counts.clear();
  other.m_kept.clear();
}

std::vector<VerifyFinding> FindingCollector::sorted() {
  std::vector<VerifyFinding> out;
  for (auto& [rule, kept] : m_kept) {
    trim(kept);
    out.insert(out.end(), kept.begin(), kept.end());
  }
  std::sort(out.begin(), out.end(), finding_before);
  return out;
}

std::uint64_t FindingCollector::count(model::Severity severity) const {
  std::uint64_t n = 0;
  for (const auto& [rule, c] : m_counts) n += c.severity == severity ? c.count : 0;
  return n;
}

}  // namespace moonquota::inspect
