// Replays every file of tests/fuzz/corpus/oplog_decoders/ through the OpLog fuzz entry, so the
// corpus (seeds and every crash the fuzzer found) is an ordinary test in every build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "fuzz/oplog_decoders_entry.hpp"

namespace moonquota::fuzz {
namespace {

namespace fs = std::filesystem;

void run(const std::string& bytes) {
  run_oplog_decoders(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(OpLogFuzzCorpus, ReplaysEveryFile) {
  const fs::path dir = fs::path(MOONQUOTA_SOURCE_DIR) / "tests/fuzz/corpus/oplog_decoders";
  std::map<int, int> per_decoder;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    SCOPED_TRACE(entry.path().filename().string());
    run(bytes.str());
    if (!bytes.str().empty()) ++per_decoder[static_cast<unsigned char>(bytes.str()[0]) % 4];
  }
  for (int d = 0; d < 4; ++d) EXPECT_GE(per_decoder[d], 2) << "seeds for decoder " << d;
}

TEST(OpLogFuzzCorpus, EntryToleratesTinyInputs) {
  run("");
  for (int selector = 0; selector < 256; ++selector) {
    const std::string s(1, static_cast<char>(selector));
    run(s);
    run(s + "[");
    run(s + "\xff\xff\xff\xff\xff\xff\xff\xff\xff");
    run(s + "\xc3\x38\x47\xc0\x1b\xff\xff\xff\xff\xff\xff\xff\xff");
  }
}

}  // namespace
}  // namespace moonquota::fuzz
