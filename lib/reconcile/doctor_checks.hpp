// The result of `quota-reconcile doctor` (app/doctor_command.hpp runs it, report/reconcile/
// doctor_report.hpp renders it): one check per dependency tried.
#pragma once

#include <string>
#include <vector>

namespace moonquota::reconcile {

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
  [[nodiscard]] int exit_code() const {
    int code = 0;
    for (const auto& c : checks) {
      if (!c.ok && c.exit_code > code) code = c.exit_code;
    }
    return code;
  }
};

}  // namespace moonquota::reconcile
