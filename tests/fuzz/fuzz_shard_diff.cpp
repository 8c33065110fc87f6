// libFuzzer target: diff_shard walking side B over side A's bytes against decoding both whole
// (input layout and property in shard_diff_entry.hpp). Built only with clang and
// -DMOONQUOTA_FUZZ=ON; see README.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/shard_diff_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return moonquota::fuzz::run_shard_diff(data, size);
}
