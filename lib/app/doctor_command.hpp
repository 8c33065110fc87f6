// `quota-reconcile doctor`: before any audit runs, each dependency the audit's flags name is tried
// one by one — the store (local or S3: credentials, bucket, the cluster ids and snapshot ids it
// holds), the catalog (embedded or Redis), the master's admin port (the tenant list and
// /metrics), etcd (the policy key, the OpLog's durable prefix) — with what it found, the exit
// code the audit would give for a failure, and a hint. Nothing is written anywhere.
#pragma once

#include <string>
#include <vector>

#include "app/audit_command.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct DoctorCheck {
  std::string name;    // store, cluster, catalog, master, master metrics, etcd policy, etcd oplog
  std::string target;  // what was tried: a URL, HOST:PORT, a path or key
  bool ok = false;
  int exit_code = 0;   // a failure's exit code as the audit would give it (3 input, 4 service)
  std::string detail;  // what was found, or what went wrong
  std::string hint;    // what to do about a failure (may be empty)
};

struct DoctorReport {
  std::vector<DoctorCheck> checks;
  // 0 when every check passed, else the largest failure's code (4 before 3).
  [[nodiscard]] int exit_code() const;
};

// Tries each dependency `args` names (none named: usage error). Errors: invalid_argument (usage:
// a flag value that cannot be parsed); every failure of a dependency is a check, not an error.
[[nodiscard]] util::Result<DoctorReport> run_doctor(const AuditArgs& args);

}  // namespace moonquota::app
