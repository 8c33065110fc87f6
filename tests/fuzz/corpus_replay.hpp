// The replay of one committed fuzz corpus (tests/fuzz/corpus/<name>/) as an ordinary test: every
// file through the target's entry, each under a SCOPED_TRACE naming it; the first byte of a file
// selects the entry's mode (byte % modes), and every mode must have at least two seeds.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace moonquota::fuzz {

inline void replay_corpus(const std::string& name, int modes, const std::function<void(const std::string&)>& run) {
  const std::filesystem::path dir = std::filesystem::path(MOONQUOTA_SOURCE_DIR) / "tests/fuzz/corpus" / name;
  std::vector<int> per_mode(static_cast<std::size_t>(modes), 0);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    SCOPED_TRACE(entry.path().filename().string());
    run(bytes.str());
    if (!bytes.str().empty()) ++per_mode[static_cast<unsigned char>(bytes.str()[0]) % modes];
  }
  for (int m = 0; m < modes; ++m)
    EXPECT_GE(per_mode[static_cast<std::size_t>(m)], 2) << name << ": seeds for mode " << m;
}

}  // namespace moonquota::fuzz
