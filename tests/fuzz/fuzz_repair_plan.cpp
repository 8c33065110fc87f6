// libFuzzer target over run_repair_plan (see operator_inputs_entry.hpp). Built only with clang
// and -DMOONQUOTA_FUZZ=ON; run it with scripts/fuzz.sh (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>

#include "fuzz/operator_inputs_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_repair_plan(data, size);
}
