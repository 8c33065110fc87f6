// A finding: something the master accepts (or decides) that an operator should know about.
// Findings never change the modelled result.
#pragma once

#include <string>
#include <vector>

namespace moonquota::model {

enum class Severity { info, warning, error };

[[nodiscard]] inline const char* severity_name(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

struct Finding {
  Severity severity = Severity::info;
  std::string location;  // file, shard, entry, byte offset: whatever applies
  std::string message;
};

using Findings = std::vector<Finding>;

}  // namespace moonquota::model
