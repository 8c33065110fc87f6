// `snapshot-inspect verify` on an object store (issue 12): each of the snapshot's objects that this
// run read whole, in order, has the CRC32C of its bytes (source::ObjectDetails::read_crc32c);
// where the server also sent x-amz-checksum-crc32c (upstream uploads every object with a
// FULL_OBJECT CRC32C; the client asks with x-amz-checksum-mode: ENABLED) the two are compared and
// a difference is an error finding naming the object. Objects read only in ranges (metadata, by
// the shard index) have no CRC32C of their own bytes and are not checked. A local store keeps no
// details: nothing is checked and nothing is reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "inspect/verify_findings.hpp"
#include "source/object_store.hpp"

namespace moonquota::inspect {

inline constexpr const char* k_crc32c_rule = "object-crc32c";

struct ChecksumCheck {
  std::uint64_t checked = 0;                  // read whole and compared with the server's CRC32C
  std::uint64_t mismatched = 0;               // of them, different (an error finding each)
  std::uint64_t without_server_checksum = 0;  // read whole, but the server sent no CRC32C
  std::uint64_t not_read_whole = 0;           // not read whole by this run: nothing to compare

  // The server sent no checksum for any object read whole.
  [[nodiscard]] bool server_sent_none() const { return checked == 0 && without_server_checksum > 0; }
};

// Compares the objects `keys` of `store` (after the scan read them). nullopt when the store has no
// details for any of them (local files). Mismatches go to `out` under k_crc32c_rule.
[[nodiscard]] std::optional<ChecksumCheck> check_object_checksums(source::ObjectStore& store,
                                                                  const std::vector<std::string>& keys,
                                                                  FindingCollector& out);

// "6 objects CRC32C-checked against the server", with the mismatches and what was not checked;
// or "the server sent no x-amz-checksum-crc32c: objects not checked".
[[nodiscard]] std::string describe_checksums(const ChecksumCheck& check);

}  // namespace moonquota::inspect
