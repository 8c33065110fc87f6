// Replays every file of tests/fuzz/corpus/canonical_entry/ through the differential entry (the
// canonical shard fast path against the general decoder), so the corpus is an ordinary test in
// every build.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/canonical_entry_entry.hpp"
#include "fuzz/corpus_replay.hpp"

namespace moonquota::fuzz {
namespace {

void run(const std::string& bytes) {
  run_canonical_entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(CanonicalEntryFuzzCorpus, ReplaysEveryFile) { replay_corpus("canonical_entry", 2, run); }

TEST(CanonicalEntryFuzzCorpus, EntryToleratesTinyInputs) {
  run("");
  for (int selector = 0; selector < 256; ++selector) {
    const std::string s(1, static_cast<char>(selector));
    run(s);
    run(s + "\x81\xa8metadata\x91\x93");
    run(s + std::string(64, '\xff'));
    run(s + std::string(64, '\x00'));
  }
}

}  // namespace
}  // namespace moonquota::fuzz
