// Mooncake's wire enums: the values exactly as serialized in snapshots (snapshot-format.md §8)
// and in OpLog entries (oplog-format.md §7.3, §8.6), each with the one table of its names. Every
// tool, report and forge names and parses these values through the tables below; nothing keeps a
// private copy.
//
// Values are kept verbatim in the model: decoders do not range-check most of them, so a reader
// can meet any value of the wire width. The tables make the unknown case explicit:
//   find_name(v)      nullopt for a value the enum does not name
//   name(v)           the name, or the enum's stand-in ("UNKNOWN", "OUT_OF_RANGE", "INVALID")
//   name_or_number(v) the name, or the value in decimal
//   parse(text)       nullopt for a name the enum does not have (names are exact, upper case)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace moonquota::model {

struct EnumName {
  std::int64_t value;
  const char* name;
};

// The names of one wire enum: each value and each name once, in value order. Values are taken as
// std::int64_t, so every wire width (u8, i8, i16, i32, u32) converts without loss.
class EnumTable {
 public:
  constexpr EnumTable(std::span<const EnumName> names, const char* unknown_name)
      : m_names(names), m_unknown_name(unknown_name) {}

  [[nodiscard]] std::optional<const char*> find_name(std::int64_t value) const;
  [[nodiscard]] const char* name(std::int64_t value) const;
  [[nodiscard]] std::string name_or_number(std::int64_t value) const;
  [[nodiscard]] std::optional<std::int64_t> parse(std::string_view name) const;

  [[nodiscard]] std::span<const EnumName> names() const { return m_names; }
  // What name() says for a value the enum does not name; never one of names().
  [[nodiscard]] const char* unknown_name() const { return m_unknown_name; }

 private:
  std::span<const EnumName> m_names;
  const char* m_unknown_name;
};

// ReplicaType (int8 in snapshots). ALL = 4 is a filter value, never a replica's type: not named.
namespace replica_type {
inline constexpr std::int8_t memory = 0;
inline constexpr std::int8_t disk = 1;
inline constexpr std::int8_t local_disk = 2;
inline constexpr std::int8_t nof_ssd = 3;  // never encodable; rejected by the decoder
inline constexpr std::int8_t dfs = 100;
extern const EnumTable k_table;  // stand-in "UNKNOWN"
[[nodiscard]] inline const char* name(std::int8_t t) { return k_table.name(t); }
}  // namespace replica_type

// ReplicaStatus (int16 in snapshots, int32 in OpLog payloads).
namespace replica_status {
inline constexpr std::int16_t undefined = 0;
inline constexpr std::int16_t initialized = 1;
inline constexpr std::int16_t processing = 2;
inline constexpr std::int16_t complete = 3;
inline constexpr std::int16_t removed = 4;
inline constexpr std::int16_t failed = 5;
extern const EnumTable k_table;  // stand-in "OUT_OF_RANGE"
[[nodiscard]] inline const char* name(std::int16_t s) { return k_table.name(s); }
}  // namespace replica_status

// ObjectDataType (u8). 10-255 are reserved and accepted unchecked.
namespace data_type {
inline constexpr std::uint8_t unknown = 0;
inline constexpr std::uint8_t kvcache = 1;
inline constexpr std::uint8_t tensor = 2;
inline constexpr std::uint8_t weight = 3;
inline constexpr std::uint8_t sample = 4;
inline constexpr std::uint8_t activation = 5;
inline constexpr std::uint8_t gradient = 6;
inline constexpr std::uint8_t optimizer_state = 7;
inline constexpr std::uint8_t metadata = 8;
inline constexpr std::uint8_t general = 9;
extern const EnumTable k_table;  // stand-in "RESERVED"
}  // namespace data_type

// SegmentStatus (int16).
namespace segment_status {
inline constexpr std::int16_t undefined = 0;
inline constexpr std::int16_t ok = 1;
inline constexpr std::int16_t draining = 2;
inline constexpr std::int16_t drained = 3;
inline constexpr std::int16_t gracefully_unmounting = 4;
inline constexpr std::int16_t unmounting = 5;
extern const EnumTable k_table;  // stand-in "OUT_OF_RANGE"
[[nodiscard]] inline const char* name(std::int16_t s) { return k_table.name(s); }
}  // namespace segment_status

// TaskType (int32).
namespace task_type {
inline constexpr std::int32_t replica_copy = 0;
inline constexpr std::int32_t replica_move = 1;
extern const EnumTable k_table;  // stand-in "OUT_OF_RANGE"
}  // namespace task_type

// TaskStatus (int32).
namespace task_status {
inline constexpr std::int32_t pending = 0;
inline constexpr std::int32_t processing = 1;
inline constexpr std::int32_t failed = 2;
inline constexpr std::int32_t success = 3;
extern const EnumTable k_table;  // stand-in "OUT_OF_RANGE"
}  // namespace task_status

inline constexpr std::int32_t k_allocator_type_offset = 1;

// OpType of an OpLog entry (u32 on the wire, oplog-format.md §7.3). 0 is invalid and values >= 8
// (OP_TYPE_MAX) are rejected by the decoder: neither is named.
namespace oplog_op_type {
inline constexpr std::uint32_t put_end = 1;
inline constexpr std::uint32_t put_revoke = 2;
inline constexpr std::uint32_t remove = 3;
inline constexpr std::uint32_t lease_renew = 4;
inline constexpr std::uint32_t segment_mount = 5;
inline constexpr std::uint32_t segment_unmount = 6;
inline constexpr std::uint32_t segment_update = 7;
inline constexpr std::uint32_t max = 8;  // OP_TYPE_MAX: values >= 8 are rejected
extern const EnumTable k_table;          // stand-in "INVALID"
[[nodiscard]] inline const char* name(std::uint32_t t) { return k_table.name(t); }
}  // namespace oplog_op_type

// The variant index of an OpLog Replica::Descriptor (u8, oplog-format.md §8.6). Not the
// ReplicaType number: variant 1 is NOF_SSD, 2 DISK, 3 LOCAL_DISK, 4 DFS.
namespace oplog_replica_variant {
inline constexpr std::uint8_t memory = 0;
inline constexpr std::uint8_t nof = 1;
inline constexpr std::uint8_t disk = 2;
inline constexpr std::uint8_t local_disk = 3;
inline constexpr std::uint8_t dfs = 4;
extern const EnumTable k_table;  // stand-in "INVALID"
[[nodiscard]] inline const char* name(std::uint8_t v) { return k_table.name(v); }
}  // namespace oplog_replica_variant

}  // namespace moonquota::model
