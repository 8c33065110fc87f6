// `quota-reconcile doctor` (app::DoctorReport) as text for people and as JSON
// (`quota-reconcile-doctor/1`: {"schema", "checks": [{"name", "target", "ok", "exit_code",
// "detail", "hint"}], "summary": {"checks", "ok", "failed", "exit_code"}}).
#pragma once

#include <ostream>

#include "app/doctor_command.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

void render_doctor(const app::DoctorReport& report, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
