#include "util/hashing.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace moonquota::util {
namespace {

// snapshot-format.md §5.2 test values.
TEST(Hashing, LibstdcxxStringHashMatchesSpecVectors) {
  EXPECT_EQ(libstdcxx_string_hash("demo-key"), 0x7582e8f9d419dbc3ULL);
  EXPECT_EQ(libstdcxx_string_hash("key-1"), 0xd58bd4279eddb8eeULL);
  EXPECT_EQ(libstdcxx_string_hash("tenant-a"), 0x0d4a8e6fc65837acULL);
}

TEST(Hashing, LibstdcxxStringHashEqualsThisCompilersStdHash) {
  // We build with GCC's libstdc++, the same library Mooncake uses.
  for (std::string s :
       {"", "a", "1234567", "12345678", "123456789", "\xff\x80 high bytes", "tenant-b/key/with/slashes"}) {
    EXPECT_EQ(libstdcxx_string_hash(s), std::hash<std::string>{}(s)) << s;
  }
}

TEST(Hashing, ShardIndexMatchesSpec) {
  EXPECT_EQ(metadata_shard_index("default", "demo-key", ""), 963u);
  EXPECT_EQ(metadata_shard_index("default", "key-1", ""), 238u);
  EXPECT_EQ(boost174_hash_combine(libstdcxx_string_hash("tenant-a"), "demo-key"), 0x576feb7d8b842837ULL);
  EXPECT_EQ(metadata_shard_index("tenant-a", "demo-key", ""), 55u);
  // Grouped objects hash the group id only; the tenant plays no part.
  EXPECT_EQ(metadata_shard_index("tenant-a", "anything", "demo-key"), 963u);
}

}  // namespace
}  // namespace moonquota::util
