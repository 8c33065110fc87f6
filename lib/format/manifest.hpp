// manifest.txt: "messagepack|1.0.0|<snapshot_id>" (snapshot-format.md §2.8).
//   master rule : split on every '|', at least 3 parts, part0 == "messagepack", part1 == "1.0.0"
//   standby rule: at least two '|', text before the first == "messagepack", between first and second == "1.0.0"
// Both are byte-exact (no trimming). Part 2 is never compared with the directory's id.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace moonquota::format {

enum class ManifestRule { master, standby };

struct ManifestCheck {
  std::vector<std::string> warnings;  // accepted but non-canonical (id mismatch, extra parts, whitespace)
};

// Validates `text` under `rule`. A rejection is Status::corruption with the reason.
[[nodiscard]] util::Result<ManifestCheck> check_manifest(std::string_view text, ManifestRule rule,
                                                         std::string_view snapshot_id);

}  // namespace moonquota::format
