// snapshot-golden's reports (docs/cli/snapshot-golden.md): `check` as text, JSON
// (snapshot-golden-check/1), GitHub workflow annotations or JUnit XML; `record` as text.
#pragma once

#include <ostream>
#include <vector>

#include "golden/golden_verdict.hpp"

namespace moonquota::report {

inline constexpr const char* k_golden_check_schema = "snapshot-golden-check/1";

enum class GoldenCheckFormat { text, json, github };

struct GoldenCheckReport {
  const std::vector<golden::SetResult>& sets;
  const golden::VerdictCounts& counts;
  bool strict = false;
  int exit_code = 0;
};

void render_golden_check(const GoldenCheckReport& report, GoldenCheckFormat format, std::ostream& out);

// One <testsuite> per set, one <testcase> per fixture: a failure (accounts-drift,
// master-disagrees; format-drift with strict) or an error (unreadable) with the differences in
// its message and text; a format drift that does not fail is told in <system-out>.
void render_golden_junit(const GoldenCheckReport& report, std::ostream& out);

// What record changed, fixture by fixture.
void render_golden_record(const std::vector<golden::RecordedFixture>& fixtures, std::ostream& out);

}  // namespace moonquota::report
