// Helpers shared by the forge tests: a minimal walk of a metadata file's top level to reach the
// compressed shards (the real decoders live elsewhere; tests of the writer must not depend on
// them). Temporary directories, file reading and zstd come from support/snapshot_test_support.hpp,
// hex from util::to_hex.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "format/msgpack_reader.hpp"

namespace moonquota::forge_test {

// (shard index, compressed BIN) pairs of a metadata file, in file order.
inline std::vector<std::pair<std::uint32_t, std::string>> metadata_shard_bins(const std::string& file) {
  std::vector<std::pair<std::uint32_t, std::string>> shards;
  format::MsgpackReader r(file);
  format::MpHeader h;
  if (!r.read_header(h) || h.type != format::MpType::map) return shards;
  const std::uint32_t pairs = h.length;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    std::string_view key;
    if (!r.read_header(h) || h.type != format::MpType::str || !r.read_payload(h.length, key)) return shards;
    if (key != "shards") {
      if (!r.skip_value()) return shards;
      continue;
    }
    if (!r.read_header(h) || h.type != format::MpType::map) return shards;
    const std::uint32_t count = h.length;
    for (std::uint32_t s = 0; s < count; ++s) {
      format::MpHeader k;
      format::MpHeader v;
      std::string_view bin;
      if (!r.read_header(k) || !r.read_header(v) || v.type != format::MpType::bin || !r.read_payload(v.length, bin)) {
        return shards;
      }
      shards.emplace_back(static_cast<std::uint32_t>(k.u), std::string(bin));
    }
  }
  return shards;
}

}  // namespace moonquota::forge_test
