// Shard blobs read in chunks (audit item 23): consecutive blobs cost one read per chunk, far-apart
// blobs one read each, and every view holds exactly its blob's bytes.
#include "inspect/shard_blob_chunks.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "source/memory_object_store.hpp"

namespace moonquota::inspect {
namespace {

using Order = std::vector<std::optional<format::ShardBlobLocation>>;

// A file of `blobs` blobs of 100 bytes each, blob i filled with the byte 'A' + i % 26.
std::string file_of(std::size_t blobs) {
  std::string file;
  for (std::size_t i = 0; i < blobs; ++i) file.append(100, static_cast<char>('A' + i % 26));
  return file;
}

format::ShardBlobLocation at(std::uint32_t shard, std::uint64_t offset) { return {shard, shard, offset, 100}; }

TEST(ShardBlobChunks, ConsecutiveBlobsAreReadInChunks) {
  source::MemoryObjectStore store;
  store.put("m", file_of(960));
  Order order;
  for (std::uint32_t s = 0; s < 960; ++s) order.push_back(s % 7 == 3 ? std::nullopt : std::optional(at(s, s * 100)));
  ShardBlobChunks chunks(store, "m", order, 10'000);  // 100 blobs a chunk
  for (std::size_t first = 0; first < 960; first += 2) {
    ASSERT_TRUE(chunks.load(first, 2).ok());
    for (std::size_t i = first; i < first + 2; ++i) {
      const auto blob = chunks.blob(i);
      ASSERT_EQ(blob.has_value(), order[i].has_value()) << i;
      if (blob) { EXPECT_EQ(*blob, std::string(100, static_cast<char>('A' + i % 26))) << i; }
    }
  }
  EXPECT_EQ(chunks.reads(), 10u);  // not 960
}

TEST(ShardBlobChunks, FarApartBlobsAreReadOneByOne) {
  source::MemoryObjectStore store;
  store.put("m", file_of(300));
  // Shard 0's blob at the end of the file (a duplicate written last), shard 1's at the start.
  Order order = {at(0, 299 * 100), at(1, 0), at(2, 100)};
  ShardBlobChunks chunks(store, "m", order, 1'000);
  ASSERT_TRUE(chunks.load(0, 2).ok());
  EXPECT_EQ(*chunks.blob(0), std::string(100, static_cast<char>('A' + 299 % 26)));
  EXPECT_EQ(*chunks.blob(1), std::string(100, 'A'));
  EXPECT_EQ(chunks.reads(), 2u);
  ASSERT_TRUE(chunks.load(2, 1).ok());
  EXPECT_EQ(*chunks.blob(2), std::string(100, 'B'));
  EXPECT_EQ(chunks.reads(), 3u);
}

TEST(ShardBlobChunks, AReadErrorNamesTheKey) {
  source::MemoryObjectStore store;
  ShardBlobChunks chunks(store, "no/such/metadata", {at(0, 0)});
  const util::Status s = chunks.load(0, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no/such/metadata"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace moonquota::inspect
