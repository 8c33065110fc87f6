// libFuzzer target over the OpLog batch and payload decoders (input layout in
// oplog_decoders_entry.hpp). Built only with clang and -DMOONQUOTA_FUZZ=ON; see README.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/oplog_decoders_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_oplog_decoders(data, size);
}
