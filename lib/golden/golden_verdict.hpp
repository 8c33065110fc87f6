// One fixture's verdict (docs/golden.md): its fingerprint compared with the stored one, its
// rebuilt account table with expected.json, the master's table (master.json) with the rebuilt
// one, after the set's allowed changes.
//   pass              nothing differs (or only allowed changes)
//   format-drift      the fingerprint changed, the accounts did not: a warning (a failure with --strict)
//   accounts-drift    the rebuilt table differs from expected.json
//   master-disagrees  the master under test serves another table than the one rebuilt
//   unreadable        the fixture cannot be checked: the store is rejected, a file is missing or bad
// A fixture has one verdict, the first of unreadable, accounts-drift, master-disagrees,
// format-drift, pass that applies; every difference found is kept beside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/allowed_changes_yaml.hpp"
#include "golden/fixture_set.hpp"
#include "inspect/snapshot_fingerprint.hpp"
#include "quota/expected_table.hpp"

namespace moonquota::golden {

enum class Verdict { pass, format_drift, accounts_drift, master_disagrees, unreadable };
[[nodiscard]] const char* verdict_name(Verdict verdict);  // "format-drift", ...
[[nodiscard]] bool is_failure(Verdict verdict, bool strict);

struct FeatureChange {
  std::string section;
  std::string feature;
  bool unknown = false;  // today's mark (added) or the stored one (removed)
};

struct FingerprintComparison {
  std::string stored_id;
  std::string today_id;
  std::vector<FeatureChange> added;    // today, not stored
  std::vector<FeatureChange> removed;  // stored, not today
  [[nodiscard]] bool matches() const { return added.empty() && removed.empty(); }
};

[[nodiscard]] FingerprintComparison compare_fingerprints(const inspect::SnapshotFingerprint& stored,
                                                         const inspect::SnapshotFingerprint& today);

// A difference an allowed change covered, with the change.
struct AllowedDifference {
  std::string comparison;  // "accounts" | "master"
  quota::FieldDifference difference;
  format::AllowedChange change;
};

struct FixtureResult {
  std::string name;
  std::string dir;
  Verdict verdict = Verdict::pass;
  std::string unreadable_reason;
  bool service_unavailable = false;  // unreadable because S3, etcd or Redis could not be reached
  std::string snapshot_id;
  std::optional<FingerprintComparison> format;
  std::optional<quota::TableComparison> accounts;  // expected.json (expected) vs rebuilt today
  std::optional<quota::TableComparison> master;    // master.json (expected) vs rebuilt today
  std::vector<AllowedDifference> allowed;
  double seconds = 0;
};

// Moves the differences of `comparison` that an entry of `changes` for `fixture` covers into
// `allowed` (field differences by tenant, field, old = expected, new = rebuilt; a tenant missing on
// one side by field "tenant", present/absent). Marks the entries used in `used` (same indexes).
void apply_allowed_changes(const std::string& fixture, const std::string& comparison,
                           const std::vector<format::AllowedChange>& changes, std::vector<bool>& used,
                           quota::TableComparison& table, std::vector<AllowedDifference>& allowed);

// The verdict from what the result holds (unreadable when unreadable_reason is set).
[[nodiscard]] Verdict decide_verdict(const FixtureResult& result);

struct VerdictCounts {
  std::uint64_t pass = 0, format_drift = 0, accounts_drift = 0, master_disagrees = 0, unreadable = 0;
  void add(Verdict v);
  [[nodiscard]] std::uint64_t failures(bool strict) const;
  [[nodiscard]] std::uint64_t total() const {
    return pass + format_drift + accounts_drift + master_disagrees + unreadable;
  }
};

[[nodiscard]] VerdictCounts count_verdicts(const std::vector<FixtureResult>& fixtures);

// One set's fixtures, checked.
struct SetResult {
  FixtureSet set;
  std::vector<FixtureResult> fixtures;
  std::vector<format::AllowedChange> unused_allowed_changes;  // entries no difference needed
};

// What `record` did to one fixture's files.
enum class FileChange { unchanged, created, updated, refused };
[[nodiscard]] const char* file_change_name(FileChange change);

struct RecordedFixture {
  std::string name;
  std::string dir;
  std::string error;                 // the fixture could not be recorded (nothing of it written)
  bool service_unavailable = false;  // because S3, etcd or Redis could not be reached
  FileChange expected = FileChange::unchanged;
  FileChange fingerprint = FileChange::unchanged;
  bool args_created = false;
  std::optional<quota::TableComparison> accounts;  // the old expected.json vs today's table
  std::optional<FingerprintComparison> format;     // the old fingerprint.json vs today's
};

}  // namespace moonquota::golden
