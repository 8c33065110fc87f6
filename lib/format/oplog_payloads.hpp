// The struct_pack payloads of OpLog entries (oplog-format.md §8.2-§8.7), decoded and encoded.
//
//   MetadataPayload (PUT_END), TYPE_CODE 0xC04738C2, always with metainfo and total_len:
//     client_id: u64 first, u64 second | size: u64 | replicas: vector<Descriptor>
//     compat (each "u8 present" then the value): group_id: string, data_type: u8, hard_pinned: bool
//   Descriptor = id: u64, variant: u8, <alternative>, status: i32
//     0 Memory / 1 NoF: size_ u64, buffer_address_ u64, protocol_ string, transport_endpoint_ string
//     2 Disk: file_path string, object_size u64
//     3 LocalDisk: client_id u64 u64, object_size u64, transport_endpoint string
//     4 DFS: file_path string, offset u64, object_size u64, aligned_size u64, shard_idx i32
//     >= 5: undecodable
//   SegmentMountOp / SegmentUpdateOp, TYPE_CODE 0x7B470444:
//     segment_name string, transport_endpoint string, capacity u64, is_memory_segment bool, file_path string
//   SegmentUnmountOp, TYPE_CODE 0x3C785B6A: transport_endpoint string
//
// Decoders accept the compact and the type-literal form; an error means "undecodable" (the applier
// then stores a placeholder or does nothing). Encoders write exactly what yalantinglibs v0.5.7 writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/struct_pack_reader.hpp"
#include "model/enums.hpp"
#include "util/status.hpp"

namespace moonquota::format {

inline constexpr std::uint32_t k_metadata_payload_type_code = 0xC04738C2U;
inline constexpr std::uint32_t k_segment_mount_type_code = 0x7B470444U;
inline constexpr std::uint32_t k_segment_unmount_type_code = 0x3C785B6AU;

// Payload replica variant indices (not ReplicaType numbers) and their names: one table, in
// model/enums.hpp.
namespace payload_variant = model::oplog_replica_variant;

struct PayloadReplica {
  std::uint64_t id = 0;
  std::uint8_t variant = payload_variant::memory;
  // memory / nof
  std::uint64_t buffer_size = 0;
  std::uint64_t buffer_address = 0;
  std::string protocol;
  std::string transport_endpoint;  // memory/nof buffer endpoint; local-disk endpoint
  // disk / dfs
  std::string file_path;
  std::uint64_t object_size = 0;  // disk, local-disk, dfs
  // local disk
  std::uint64_t client_first = 0;
  std::uint64_t client_second = 0;
  // dfs
  std::uint64_t dfs_offset = 0;
  std::uint64_t dfs_aligned_size = 0;
  std::int32_t dfs_shard_idx = 0;
  std::int32_t status = 0;  // ReplicaStatus
  bool operator==(const PayloadReplica&) const = default;
};

struct MetadataPayload {
  std::uint64_t client_first = 0;
  std::uint64_t client_second = 0;
  std::uint64_t size = 0;
  std::vector<PayloadReplica> replicas;
  std::optional<std::string> group_id;    // absent: "" after conversion
  std::optional<std::uint8_t> data_type;  // absent: UNKNOWN (0)
  std::optional<bool> hard_pinned;        // absent: false
  bool operator==(const MetadataPayload&) const = default;
};

struct SegmentMountOp {  // also SegmentUpdateOp
  std::string segment_name;
  std::string transport_endpoint;
  std::uint64_t capacity = 0;
  bool is_memory_segment = true;
  std::string file_path;
  bool operator==(const SegmentMountOp&) const = default;
};

struct SegmentUnmountOp {
  std::string transport_endpoint;
};

// How a payload was framed; reported, never changes the decoded value.
struct PayloadShape {
  PayloadForm form = PayloadForm::compact;
  std::size_t trailing_bytes = 0;  // ignored bytes after the value (or after total_len)
};

// Errors: corruption naming the field and byte offset.
[[nodiscard]] util::Result<MetadataPayload> decode_metadata_payload(std::string_view bytes,
                                                                    PayloadShape* shape = nullptr);
// The fast path of decode_metadata_payload for the one shape the writer produces for the common
// PUT_END: compact form, hash_head with metainfo, metainfo 0x01 (a u16 total_len, 1-byte
// lengths), memory or NoF replicas only, all three compatible fields flagged, total_len equal to
// the buffer's size (no trailing bytes). Returns true with `out` and `shape` equal to what
// decode_metadata_payload returns for `bytes` (it succeeds for every buffer this accepts); `out`
// is overwritten in place, so its capacity (replicas, strings) is reused. Returns false for
// anything else, leaving `out` unspecified: decode with decode_metadata_payload then.
// OpLogPayloads.CompactFastPathMatchesTheGeneralDecoder and fuzz_oplog_decoders compare the two.
[[nodiscard]] bool decode_compact_metadata_payload(std::string_view bytes, MetadataPayload& out, PayloadShape& shape);
[[nodiscard]] util::Result<SegmentMountOp> decode_segment_mount(std::string_view bytes, PayloadShape* shape = nullptr);
[[nodiscard]] util::Result<SegmentUnmountOp> decode_segment_unmount(std::string_view bytes,
                                                                    PayloadShape* shape = nullptr);

[[nodiscard]] std::string encode_metadata_payload(const MetadataPayload& payload, PayloadForm form);
[[nodiscard]] std::string encode_segment_mount(const SegmentMountOp& op, PayloadForm form);
[[nodiscard]] std::string encode_segment_unmount(const SegmentUnmountOp& op, PayloadForm form);

// The type literals embedded by non-NDEBUG writers (§8.3), without their NUL.
[[nodiscard]] std::string_view metadata_payload_literal();
[[nodiscard]] std::string_view segment_mount_literal();
[[nodiscard]] std::string_view segment_unmount_literal();

}  // namespace moonquota::format
