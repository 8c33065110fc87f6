// Replays every file of tests/fuzz/corpus/oplog_decoders/ through the OpLog fuzz entry, so the
// corpus (seeds and every crash the fuzzer found) is an ordinary test in every build.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/corpus_replay.hpp"
#include "fuzz/oplog_decoders_entry.hpp"

namespace moonquota::fuzz {
namespace {

void replay_oplog_decoders(const std::string& bytes) {
  run_oplog_decoders(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(OpLogFuzzCorpus, ReplaysEveryFile) { replay_corpus("oplog_decoders", 4, replay_oplog_decoders); }

TEST(OpLogFuzzCorpus, EntryToleratesTinyInputs) {
  replay_oplog_decoders("");
  for (int selector = 0; selector < 256; ++selector) {
    const std::string s(1, static_cast<char>(selector));
    replay_oplog_decoders(s);
    replay_oplog_decoders(s + "[");
    replay_oplog_decoders(s + "\xff\xff\xff\xff\xff\xff\xff\xff\xff");
    replay_oplog_decoders(s + "\xc3\x38\x47\xc0\x1b\xff\xff\xff\xff\xff\xff\xff\xff");
  }
}

}  // namespace
}  // namespace moonquota::fuzz
