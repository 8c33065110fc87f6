// snapshot-golden's allowed-changes.yaml: the differences a fixture set expects on purpose, one
// entry each, as pg_upgrade's adjust list does (docs/golden.md):
//   changes:
//     - fixture: genuine/s1_single_segment_basic
//       tenant: alpha
//       field: charged_bytes        # a table field, or "tenant" (old/new: present | absent)
//       old: 4096
//       new: 8192
//       reason: the master now charges DISK replicas (PR 1234)
// Every member is required and a string or a scalar (numbers and booleans are compared as their
// text); `reason` must not be empty.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace moonquota::format {

inline constexpr std::size_t k_max_allowed_changes_bytes = 4 * 1024 * 1024;
inline constexpr std::size_t k_max_allowed_changes_nodes = 200'000;

struct AllowedChange {
  std::string fixture;
  std::string tenant;
  std::string field;
  std::string old_value;
  std::string new_value;
  std::string reason;
  int line = 0;  // of the entry, 1-based
};

// The fields an entry may name: the table's and "tenant".
[[nodiscard]] bool is_allowed_change_field(std::string_view field);

// Errors: refused naming `source_name`, the line and the member (invalid YAML, not a map with a
// "changes" list, a member missing or not a scalar, an unknown field, an empty reason);
// unsupported beyond our node limit.
[[nodiscard]] util::Result<std::vector<AllowedChange>> parse_allowed_changes_yaml(std::string_view text,
                                                                                  const std::string& source_name);

}  // namespace moonquota::format
