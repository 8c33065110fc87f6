// The hash functions Mooncake uses to place objects into metadata shards (snapshot-format.md §5.2):
// libstdc++'s std::hash<std::string> (64-bit MurmurHash2, seed 0xc70f6907) and Boost 1.74
// hash_combine with x86-64 signed-char widening.
#pragma once

#include <cstdint>
#include <string_view>

namespace moonquota::util {

inline constexpr std::uint32_t k_metadata_shards = 1024;

// libstdc++ _Hash_bytes(data, len, 0xc70f6907), i.e. std::hash<std::string> under GCC.
[[nodiscard]] std::uint64_t libstdcxx_string_hash(std::string_view bytes);

// boost::hash<std::string> as of Boost 1.74 (<= 1.80), chars widened as signed (x86-64).
[[nodiscard]] std::uint64_t boost174_string_hash(std::string_view bytes);

// boost::hash_combine(seed, s) as of Boost 1.74.
[[nodiscard]] std::uint64_t boost174_hash_combine(std::uint64_t seed, std::string_view s);

// The metadata shard Mooncake computes for an object.
[[nodiscard]] std::uint32_t metadata_shard_index(std::string_view tenant, std::string_view key,
                                                 std::string_view group_id);

}  // namespace moonquota::util
