#include "util/hashing.hpp"

#include <cstring>

namespace moonquota::util {

namespace {

constexpr std::uint64_t k_murmur_m = 0xc6a4a7935bd1e995ULL;

std::uint64_t shift_mix(std::uint64_t v) { return v ^ (v >> 47); }

std::uint64_t load_le(const unsigned char* p, size_t n) {
  std::uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

void boost_combine64(std::uint64_t& h, std::uint64_t k) {
  k *= k_murmur_m;
  k ^= k >> 47;
  k *= k_murmur_m;
  h ^= k;
  h *= k_murmur_m;
  h += 0xe6546b64;
}

}  // namespace

std::uint64_t libstdcxx_string_hash(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t len = bytes.size();
  std::uint64_t h = 0xc70f6907ULL ^ (static_cast<std::uint64_t>(len) * k_murmur_m);
  const size_t aligned = len & ~static_cast<size_t>(7);
  for (size_t i = 0; i < aligned; i += 8) {
    std::uint64_t b = shift_mix(load_le(p + i, 8) * k_murmur_m) * k_murmur_m;
    h ^= b;
    h *= k_murmur_m;
  }
  if ((len & 7) != 0) {
    h ^= load_le(p + aligned, len & 7);
    h *= k_murmur_m;
  }
  h = shift_mix(h) * k_murmur_m;
  h = shift_mix(h);
  return h;
}

std::uint64_t boost174_string_hash(std::string_view bytes) {
  std::uint64_t h = 0;
  for (char c : bytes) {
    // x86-64 char is signed: bytes >= 0x80 sign-extend.
    auto widened = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<signed char>(c)));
    boost_combine64(h, widened);
  }
  return h;
}

std::uint64_t boost174_hash_combine(std::uint64_t seed, std::string_view s) {
  boost_combine64(seed, boost174_string_hash(s));
  return seed;
}

std::uint32_t metadata_shard_index(std::string_view tenant, std::string_view key, std::string_view group_id) {
  std::uint64_t h = 0;
  if (!group_id.empty()) {
    h = libstdcxx_string_hash(group_id);
  } else if (tenant == "default") {
    h = libstdcxx_string_hash(key);
  } else {
    h = boost174_hash_combine(libstdcxx_string_hash(tenant), key);
  }
  return static_cast<std::uint32_t>(h % k_metadata_shards);
}

}  // namespace moonquota::util
