// Mooncake enum values exactly as serialized in snapshots (snapshot-format.md §8). Values are
// kept verbatim in the model (decoders do not range-check most of them).
#pragma once

#include <cstdint>

namespace moonquota::model {

namespace replica_type {
inline constexpr std::int8_t memory = 0;
inline constexpr std::int8_t disk = 1;
inline constexpr std::int8_t local_disk = 2;
inline constexpr std::int8_t nof_ssd = 3;  // never encodable; rejected by the decoder
inline constexpr std::int8_t dfs = 100;
[[nodiscard]] const char* name(std::int8_t t);
}  // namespace replica_type

namespace replica_status {
inline constexpr std::int16_t undefined = 0;
inline constexpr std::int16_t initialized = 1;
inline constexpr std::int16_t processing = 2;
inline constexpr std::int16_t complete = 3;
inline constexpr std::int16_t removed = 4;
inline constexpr std::int16_t failed = 5;
[[nodiscard]] const char* name(std::int16_t s);
}  // namespace replica_status

namespace segment_status {
inline constexpr std::int16_t undefined = 0;
inline constexpr std::int16_t ok = 1;
inline constexpr std::int16_t draining = 2;
inline constexpr std::int16_t drained = 3;
inline constexpr std::int16_t gracefully_unmounting = 4;
inline constexpr std::int16_t unmounting = 5;
[[nodiscard]] const char* name(std::int16_t s);
}  // namespace segment_status

namespace task_type {
inline constexpr std::int32_t replica_copy = 0;
inline constexpr std::int32_t replica_move = 1;
}  // namespace task_type

namespace task_status {
inline constexpr std::int32_t pending = 0;
inline constexpr std::int32_t processing = 1;
inline constexpr std::int32_t failed = 2;
inline constexpr std::int32_t success = 3;
}  // namespace task_status

inline constexpr std::int32_t k_allocator_type_offset = 1;

}  // namespace moonquota::model
