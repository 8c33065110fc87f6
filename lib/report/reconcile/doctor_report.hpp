// `quota-reconcile doctor` (reconcile::DoctorReport) as text for people and as JSON
// (`quota-reconcile-doctor/1`: {"schema", "checks": [{"name", "target", "ok", "exit_code",
// "detail", "hint"}], "summary": {"checks", "ok", "failed", "exit_code"}}).
#pragma once

#include <ostream>

#include "reconcile/doctor_checks.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

void render_doctor(const reconcile::DoctorReport& report, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
