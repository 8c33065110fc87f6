// A finding: something the master accepts (or decides) that an operator should know about.
// Findings never change the modelled result.
#pragma once

#include <cstdint>
#include <optional>
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

// `location` and `message` are what reports print. The fields after them say the same in data,
// for code that groups, sorts or classifies findings: it reads these and never parses the text.
// They are appended with `{}` initializers, so `{severity, location, message}` stays complete.
struct Finding {
  Severity severity = Severity::info;
  std::string location;  // file, shard, entry, byte offset: whatever applies
  std::string message;
  std::string rule{};                    // stable id of the check ("duplicate-key"); empty: none named
  std::optional<std::uint32_t> shard{};  // metadata shard index, when about a shard or one of its entries
  std::optional<std::uint64_t> entry{};  // entry index inside its shard (snapshots) or its batch (OpLog)
};

using Findings = std::vector<Finding>;

}  // namespace moonquota::model
