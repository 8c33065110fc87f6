// The write side of the OpLog: a scenario's "oplog" member -> the etcd keys a Mooncake writer
// would leave (docs/formats/forge-scenario.md, "OpLog tails"), written as an export file and/or
// into etcd. Also a synthetic log of N entries for load tests.
//
//   "oplog": {"cluster_id": "prod-a", "payload_form": "compact" | "type_literal",
//             "durable_prefix": {"batch_id": N, "last_seq": S} | "absent" | "<raw text>",
//             "batches": [{"batch_id"?, "first_seq"?, "checksum"?, "raw"?, "entries": [entry...]}],
//             "extra_keys": [{"suffix": "latest", "value": "..."}]}
//   entry = {"op": "PUT_END" | "REMOVE" | "PUT_REVOKE" | "LEASE_RENEW" | "SEGMENT_MOUNT" |
//                  "SEGMENT_UPDATE" | "SEGMENT_UNMOUNT" | number, "tenant"?, "key",
//            "payload_form"?, "payload_base64"? (verbatim payload), "object"? (PUT_END), "segment"? (SEGMENT_*)}
//   object  = {"client_first", "client_second", "size", "replicas": [replica...], "group_id"?, "data_type"?,
//   "hard_pinned"?} replica = {"id", "kind": "MEMORY"|"NOF"|"DISK"|"LOCAL_DISK"|"DFS", "status": "COMPLETE"|...
//   |number,
//              "size", "address", "protocol", "endpoint", "file_path", "object_size"}
//   segment = {"name", "endpoint", "capacity", "is_memory"?, "file_path"?}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source/oplog_source.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

struct ForgedOpLog {
  std::string cluster_id;
  std::vector<source::KeyValue> kvs;  // full etcd keys, sorted
  std::uint64_t entries = 0;
};

// Parses the "oplog" member of a scenario document; nothing when the document has none.
[[nodiscard]] util::Result<std::optional<ForgedOpLog>> parse_oplog_scenario(std::string_view json_text,
                                                                            const std::string& default_cluster_id);

struct SyntheticOpLogOptions {
  std::string cluster_id = "mooncake_cluster";
  std::uint64_t entries = 1'000'000;
  std::uint64_t entries_per_batch = 1024;
  std::uint32_t tenants = 8;
  std::uint64_t keys = 100'000;  // distinct keys: later PUT_ENDs replace, some REMOVEs erase
  bool type_literal = false;
};

// A realistic log: batch 1 holds one SEGMENT_MOUNT, then PUT_END (90%) / REMOVE (10%) entries.
[[nodiscard]] ForgedOpLog synthesize_oplog(const SyntheticOpLogOptions& options);

}  // namespace moonquota::forge
