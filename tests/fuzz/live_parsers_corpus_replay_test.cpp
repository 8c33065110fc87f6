// Replays every file of tests/fuzz/corpus/<target>/ through its entry (live_parsers_entry.hpp), so
// the seeds and every input a fuzzer crashed on (regression-*) are ordinary tests in every build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fuzz/live_parsers_entry.hpp"

namespace moonquota::fuzz {
namespace {

namespace fs = std::filesystem;

using Entry = int (*)(const std::uint8_t*, std::size_t);

int replay(const std::string& corpus, Entry entry) {
  const fs::path dir = fs::path(MOONQUOTA_SOURCE_DIR) / "tests/fuzz/corpus" / corpus;
  int files = 0;
  for (const auto& file : fs::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    std::ifstream in(file.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string input = bytes.str();
    SCOPED_TRACE(file.path().filename().string());
    entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    ++files;
  }
  return files;
}

void tiny_inputs(Entry entry) {
  entry(nullptr, 0);
  for (int byte = 0; byte < 256; ++byte) {
    for (const std::string tail : {"", "{", "[", "#", "a 1\n", "\xff\xff\xff\xff\xff\xff\xff\xff\xff"}) {
      const std::string input = std::string(1, static_cast<char>(byte)) + tail;
      entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    }
  }
}

TEST(LiveParsersFuzzCorpus, PrometheusText) { EXPECT_GE(replay("prometheus_text", run_prometheus_text), 3); }
TEST(LiveParsersFuzzCorpus, TenantList) { EXPECT_GE(replay("tenant_list", run_tenant_list), 3); }
TEST(LiveParsersFuzzCorpus, TenantMetrics) { EXPECT_GE(replay("tenant_metrics", run_tenant_metrics), 3); }
TEST(LiveParsersFuzzCorpus, PolicyYaml) { EXPECT_GE(replay("policy_yaml", run_policy_yaml), 3); }
TEST(LiveParsersFuzzCorpus, StructPack) { EXPECT_GE(replay("struct_pack", run_struct_pack), 3); }
TEST(LiveParsersFuzzCorpus, S3Answers) { EXPECT_GE(replay("s3_answers", run_s3_answers), 3); }

TEST(LiveParsersFuzzCorpus, EntriesTolerateTinyInputs) {
  for (Entry entry :
       {run_prometheus_text, run_tenant_list, run_tenant_metrics, run_policy_yaml, run_struct_pack, run_s3_answers}) {
    tiny_inputs(entry);
  }
}

}  // namespace
}  // namespace moonquota::fuzz
