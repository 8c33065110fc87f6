#include "golden/golden_verdict.hpp"

#include <algorithm>

namespace moonquota::golden {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::format_drift: return "format-drift";
    case Verdict::accounts_drift: return "accounts-drift";
    case Verdict::master_disagrees: return "master-disagrees";
    case Verdict::unreadable: return "unreadable";
  }
  return "?";
}

bool is_failure(Verdict verdict, bool strict) {
  return verdict != Verdict::pass && (verdict != Verdict::format_drift || strict);
}

FingerprintComparison compare_fingerprints(const inspect::SnapshotFingerprint& stored,
                                           const inspect::SnapshotFingerprint& today) {
  FingerprintComparison c;
  c.stored_id = inspect::fingerprint_id_of(stored.shape);  // of the stored shape, whatever id the file says
  c.today_id = today.fingerprint_id;
  const auto one_side = [](const inspect::SnapshotShape& from, const inspect::SnapshotShape& other,
                           std::vector<FeatureChange>& out) {
    for (const auto& [section, features] : from.sections) {
      const auto there = other.sections.find(section);
      for (const auto& [feature, f] : features) {
        if (there == other.sections.end() || there->second.count(feature) == 0) {
          out.push_back({section, feature, f.unknown});
        }
      }
    }
  };
  one_side(today.shape, stored.shape, c.added);
  one_side(stored.shape, today.shape, c.removed);
  return c;
}

void apply_allowed_changes(const std::string& fixture, const std::string& comparison,
                           const std::vector<format::AllowedChange>& changes, std::vector<bool>& used,
                           quota::TableComparison& table, std::vector<AllowedDifference>& allowed) {
  const auto covered = [&](const quota::FieldDifference& d) {
    for (std::size_t i = 0; i < changes.size(); ++i) {
      const auto& c = changes[i];
      if (c.fixture == fixture && c.tenant == d.tenant_id && c.field == d.field && c.old_value == d.expected &&
          c.new_value == d.rebuilt) {
        used[i] = true;
        allowed.push_back({comparison, d, c});
        return true;
      }
    }
    return false;
  };
  std::erase_if(table.differences, covered);
  std::erase_if(table.missing_in_rebuilt, [&](const std::string& tenant) {
    return covered({tenant, "tenant", "present", "absent"});
  });
  std::erase_if(table.missing_in_expected, [&](const std::string& tenant) {
    return covered({tenant, "tenant", "absent", "present"});
  });
}

Verdict decide_verdict(const FixtureResult& r) {
  if (!r.unreadable_reason.empty()) return Verdict::unreadable;
  if (r.accounts && !r.accounts->matches()) return Verdict::accounts_drift;
  if (r.master && !r.master->matches()) return Verdict::master_disagrees;
  if (r.format && !r.format->matches()) return Verdict::format_drift;
  return Verdict::pass;
}

const char* file_change_name(FileChange change) {
  switch (change) {
    case FileChange::unchanged: return "unchanged";
    case FileChange::created: return "created";
    case FileChange::updated: return "updated";
    case FileChange::refused: return "refused";
  }
  return "?";
}

void VerdictCounts::add(Verdict v) {
  switch (v) {
    case Verdict::pass: ++pass; break;
    case Verdict::format_drift: ++format_drift; break;
    case Verdict::accounts_drift: ++accounts_drift; break;
    case Verdict::master_disagrees: ++master_disagrees; break;
    case Verdict::unreadable: ++unreadable; break;
  }
}

VerdictCounts count_verdicts(const std::vector<FixtureResult>& fixtures) {
  VerdictCounts counts;
  for (const auto& f : fixtures) counts.add(f.verdict);
  return counts;
}

std::uint64_t VerdictCounts::failures(bool strict) const {
  return accounts_drift + master_disagrees + unreadable + (strict ? format_drift : 0);
}

}  // namespace moonquota::golden
