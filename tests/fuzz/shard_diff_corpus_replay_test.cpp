// Replays every file of tests/fuzz/corpus/shard_diff/ through the differential entry (side B walked
// over side A's bytes against both sides decoded whole; shard_diff_entry.hpp), so the corpus is an
// ordinary test in every build. The entry aborts on a difference.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/corpus_replay.hpp"
#include "fuzz/shard_diff_entry.hpp"

namespace moonquota::fuzz {
namespace {

TEST(ShardDiffFuzzCorpus, ReplaysEveryFile) {
  int walked = 0;
  replay_corpus("shard_diff", 1, [&](const std::string& bytes) {
    walked += compare_shard_diff(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  });
  // The corpus must exercise the walk, not only its fallback to decoding side B whole.
  EXPECT_GT(walked, 0);
}

}  // namespace
}  // namespace moonquota::fuzz
