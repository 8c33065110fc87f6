// Decoder of the decompressed `task_manager` payload (snapshot-format.md §7):
//   [[id STR uuid, type i32, status i32, payload STR, created_at_ms i64, last_updated_at_ms i64,
//     message STR, assigned_client STR uuid], ...]
// Master rules: the top level must be an array (else the candidate is rejected); a task that is
// not an 8-array, has an invalid UUID, or a type error in idx 1-6 is skipped; a non-string idx 0
// or idx 7 throws (candidate rejected). The compressed frame is capped at 1 GiB decompressed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::format {

inline constexpr std::uint64_t k_task_manager_max_bytes = std::uint64_t{1} << 30;

struct TaskManagerPayload {
  std::vector<model::TaskRecord> tasks;
  std::uint64_t skipped = 0;
};

[[nodiscard]] util::Result<TaskManagerPayload> decode_task_manager(std::string_view raw, model::Findings& findings);

}  // namespace moonquota::format
