// Helpers shared by the forge tests: file reading, hex, and a minimal walk of a metadata file's
// top level to reach the compressed shards (the real decoders live elsewhere; tests of the
// writer must not depend on them).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "format/msgpack_reader.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::forge_test {

inline std::string source_path(const std::string& relative) {
  return std::string(MOONQUOTA_SOURCE_DIR) + "/" + relative;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

inline std::string unzstd(const std::string& frame) {
  std::string out;
  auto status = util::zstd_decompress(frame, 1U << 30, out);
  EXPECT_TRUE(status.ok()) << status.to_string();
  return out;
}

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
      if (!r.read_header(k) || !r.read_header(v) || v.type != format::MpType::bin ||
          !r.read_payload(v.length, bin)) {
        return shards;
      }
      shards.emplace_back(static_cast<std::uint32_t>(k.u), std::string(bin));
    }
  }
  return shards;
}

}  // namespace moonquota::forge_test
