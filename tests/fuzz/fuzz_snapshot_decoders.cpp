// libFuzzer target over the snapshot payload decoders (see snapshot_decoders_entry.hpp for the
// input layout). Built only with clang and -DMOONQUOTA_FUZZ=ON; see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/snapshot_decoders_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_snapshot_decoders(data, size);
}
