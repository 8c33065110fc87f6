// libFuzzer target: decode_shard's canonical fast path against the general decoder (input layout
// and property in canonical_entry_entry.hpp). Built only with clang and -DMOONQUOTA_FUZZ=ON; see
// README.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/canonical_entry_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_canonical_entry(data, size);
}
