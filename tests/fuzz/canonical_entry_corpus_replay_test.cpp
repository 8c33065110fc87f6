// Replays every file of tests/fuzz/corpus/canonical_entry/ through the differential entry (the
// canonical shard fast path against the general decoder), so the corpus is an ordinary test in
// every build.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/canonical_entry_entry.hpp"
#include "fuzz/corpus_replay.hpp"

namespace moonquota::fuzz {
namespace {

void replay_canonical_entry(const std::string& bytes) {
  run_canonical_entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(CanonicalEntryFuzzCorpus, ReplaysEveryFile) { replay_corpus("canonical_entry", 2, replay_canonical_entry); }

TEST(CanonicalEntryFuzzCorpus, EntryToleratesTinyInputs) {
  replay_canonical_entry("");
  for (int selector = 0; selector < 256; ++selector) {
    const std::string s(1, static_cast<char>(selector));
    replay_canonical_entry(s);
    replay_canonical_entry(s + "\x81\xa8metadata\x91\x93");
    replay_canonical_entry(s + std::string(64, '\xff'));
    replay_canonical_entry(s + std::string(64, '\x00'));
  }
}

}  // namespace
}  // namespace moonquota::fuzz
