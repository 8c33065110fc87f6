// Encoder for the `task_manager` payload (snapshot-format.md §7), byte-identical to Mooncake's
// TaskManagerSerializer:
//   task_manager := zstd( [ Task... ] )  sorted by task UUID as a numeric pair
//   Task := [id STR, type i32, status i32, payload STR (JSON), created_at_ms, last_updated_at_ms,
//            message STR, assigned_client STR]
#pragma once

#include <string>
#include <vector>

#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::format {

// The decompressed payload. Fails when a task id is not a UUID (it could not be sorted).
[[nodiscard]] util::Result<std::string> encode_task_manager_raw(std::vector<model::TaskRecord> tasks);

// The `task_manager` file bytes: one zstd level-3 frame.
[[nodiscard]] util::Result<std::string> encode_task_manager(std::vector<model::TaskRecord> tasks);

}  // namespace moonquota::format
