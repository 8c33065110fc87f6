// `quota-reconcile doctor`: before any audit runs, each dependency the audit's flags name is tried
// one by one — the store (local or S3: credentials, bucket, the cluster ids and snapshot ids it
// holds), the catalog (embedded or Redis), the master's admin port (the tenant list and
// /metrics), etcd (the policy key, the OpLog's durable prefix) — with what it found, the exit
// code the audit would give for a failure, and a hint. Nothing is written anywhere.
#pragma once

#include "app/audit_command.hpp"
#include "reconcile/doctor_checks.hpp"
#include "util/status.hpp"

namespace moonquota::app {

using reconcile::DoctorCheck;
using reconcile::DoctorReport;

// Tries each dependency `args` names (none named: usage error). Errors: invalid_argument (usage:
// a flag value that cannot be parsed); every failure of a dependency is a check, not an error.
[[nodiscard]] util::Result<DoctorReport> run_doctor(const AuditArgs& args);

}  // namespace moonquota::app
