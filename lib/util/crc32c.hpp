// CRC32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum S3 keeps as
// x-amz-checksum-crc32c and upstream Mooncake uploads with every snapshot object. SSE4.2's crc32
// instruction when the CPU has it, a slicing-by-8 table otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace moonquota::util {

class Crc32c {
 public:
  void update(std::string_view bytes);
  [[nodiscard]] std::uint32_t value() const { return ~m_state; }
  // The big-endian 4 bytes in base64: the form of the x-amz-checksum-crc32c header ("yZRlqg==").
  [[nodiscard]] std::string base64() const;

 private:
  std::uint32_t m_state = 0xFFFFFFFFu;
};

[[nodiscard]] std::uint32_t crc32c(std::string_view bytes);

}  // namespace moonquota::util
