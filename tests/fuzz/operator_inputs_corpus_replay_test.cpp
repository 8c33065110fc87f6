// Replays tests/fuzz/corpus/{s3_env_file,durations,service_request,golden_inputs,repair_plan}/ through their entries
// (operator_inputs_entry.hpp), so the seeds and every input a fuzzer crashed on (regression-*)
// are ordinary tests in every build.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/corpus_replay.hpp"
#include "fuzz/operator_inputs_entry.hpp"

namespace moonquota::fuzz {
namespace {

void run_text(int (*entry)(const std::uint8_t*, std::size_t), const std::string& input) {
  entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

TEST(OperatorInputsFuzzCorpus, S3EnvFile) {
  replay_corpus("s3_env_file", 1, [](const std::string& in) { run_text(run_s3_env_file, in); });
}

TEST(OperatorInputsFuzzCorpus, Durations) {
  replay_corpus("durations", 1, [](const std::string& in) { run_text(run_durations, in); });
}

// Byte 0 picks the service state: five of them, each with seeds.
TEST(OperatorInputsFuzzCorpus, ServiceRequest) {
  replay_corpus("service_request", 5, [](const std::string& in) { run_text(run_service_request, in); });
}

// Byte 0 picks allowed-changes.yaml, fingerprint.json or an args file.
TEST(OperatorInputsFuzzCorpus, GoldenInputs) {
  replay_corpus("golden_inputs", 3, [](const std::string& in) { run_text(run_golden_inputs, in); });
}

// Whole inputs: a repair plan as apply reads it.
TEST(OperatorInputsFuzzCorpus, RepairPlan) {
  replay_corpus("repair_plan", 1, [](const std::string& in) { run_text(run_repair_plan, in); });
}

TEST(OperatorInputsFuzzCorpus, EntriesTolerateTinyInputs) {
  for (auto entry : {run_s3_env_file, run_durations, run_service_request, run_golden_inputs, run_repair_plan}) {
    entry(nullptr, 0);
    for (int byte = 0; byte < 256; ++byte) {
      for (const std::string tail : {"", "/", "/history?", "=", "+", "\xff"}) {
        run_text(entry, std::string(1, static_cast<char>(byte)) + tail);
      }
    }
  }
}

}  // namespace
}  // namespace moonquota::fuzz
