// Replays every file of tests/fuzz/corpus/canonical_entry/ through the differential entry (the
// canonical shard fast path against the general decoder), so the corpus is an ordinary test in
// every build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "fuzz/canonical_entry_entry.hpp"

namespace moonquota::fuzz {
namespace {

namespace fs = std::filesystem;

void run(const std::string& bytes) {
  run_canonical_entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(CanonicalEntryFuzzCorpus, ReplaysEveryFile) {
  const fs::path dir = fs::path(MOONQUOTA_SOURCE_DIR) / "tests/fuzz/corpus/canonical_entry";
  std::map<int, int> per_mode;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    SCOPED_TRACE(entry.path().filename().string());
    run(bytes.str());
    if (!bytes.str().empty()) ++per_mode[static_cast<unsigned char>(bytes.str()[0]) % 2];
  }
  for (int m = 0; m < 2; ++m) EXPECT_GE(per_mode[m], 2) << "seeds for mode " << m;
}

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
