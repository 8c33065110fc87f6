// libFuzzer target: the canonical batch scanner against jsoncpp (input layout and property in
// oplog_canonical_entry.hpp). Built only with clang and -DMOONQUOTA_FUZZ=ON; see README.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/oplog_canonical_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_oplog_canonical(data, size);
}
