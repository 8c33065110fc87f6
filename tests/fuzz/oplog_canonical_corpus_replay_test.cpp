// Replays every file of tests/fuzz/corpus/oplog_canonical/ through the differential entry (the
// canonical batch scanner against jsoncpp), so the corpus is an ordinary test in every build.
#include <gtest/gtest.h>

#include <string>

#include "format/oplog_canonical.hpp"
#include "fuzz/corpus_replay.hpp"
#include "fuzz/oplog_canonical_entry.hpp"

namespace moonquota::fuzz {
namespace {

void replay_oplog_canonical(const std::string& bytes) {
  run_oplog_canonical(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(OpLogCanonicalFuzzCorpus, ReplaysEveryFile) { replay_corpus("oplog_canonical", 3, replay_oplog_canonical); }

TEST(OpLogCanonicalFuzzCorpus, EntryToleratesTinyInputs) {
  replay_oplog_canonical("");
  for (int selector = 0; selector < 256; ++selector) {
    const std::string s(1, static_cast<char>(selector));
    replay_oplog_canonical(s);
    replay_oplog_canonical(s + "[");
    replay_oplog_canonical(s + "[1,1,1,1,[[1,\"t\",\"k\",\"\"]],0]");
    replay_oplog_canonical(s + std::string(64, '\xff'));
  }
}

TEST(OpLogCanonicalScanner, AcceptsTheWritersShapeOnly) {
  format::CanonicalBatchView view;
  ASSERT_TRUE(format::scan_canonical_batch("[1,2,3,4,[[1,\"t\",\"k\",\"AA==\"],[3,\"\",\"k/2\",\"\"]],77]", view));
  EXPECT_EQ(view.batch_id, 2U);
  EXPECT_EQ(view.entries.size(), 2U);
  EXPECT_EQ(view.entries[1].key, "k/2");
  EXPECT_EQ(view.checksum, 77U);
  EXPECT_EQ(view.checksum_input_end,
            std::string_view("[1,2,3,4,[[1,\"t\",\"k\",\"AA==\"],[3,\"\",\"k/2\",\"\"]]").size());
  for (const char* text :
       {"[1,2,3,4,[],77]", "[1, 2,3,4,[[1,\"t\",\"k\",\"\"]],77]", "[1,2,3,4,[[1,\"t\\/\",\"k\",\"\"]],77]",
        "[1,2,3,4,[[1,\"t\",\"k\",\"\"]],77] ", "[1,02,3,4,[[1,\"t\",\"k\",\"\"]],77]",
        "[1,2,3,4,[[1,\"t\",\"k\",\"\"]],18446744073709551616]", "[1,2,3,4,[[1.0,\"t\",\"k\",\"\"]],77]",
        "[1,2,3,4,[[1,\"t\xc3\xa9\",\"k\",\"\"]],77]", "[1,2,3,4,[[1,\"t\",\"k\",\"\"],],77]"}) {
    EXPECT_FALSE(format::scan_canonical_batch(text, view)) << text;
  }
}

}  // namespace
}  // namespace moonquota::fuzz
