// canonical-entry-stress N [SEED]: runs N pseudo-random inputs through the differential entry of
// the canonical shard fast path (canonical_entry_entry.hpp) without libFuzzer or sanitizers, for
// the long runs tests/fuzz/README.md records. Half the inputs are mode 1 (generated shards with
// byte edits), half mode 0 with a generated shard whose bytes are then flipped at random. Aborts
// with the shard on the first difference; prints the count when done.
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz/canonical_entry_entry.hpp"
#include "fuzz/stress_driver.hpp"

int main(int argc, char** argv) {
  moonquota::fuzz::StressRun run;
  if (!moonquota::fuzz::parse_stress_run(argc, argv, "canonical-entry-stress", run)) return 2;
  const unsigned long long n = run.inputs;
  auto next = [&] { return run.next(); };
  std::string input;
  std::string gen;
  for (unsigned long long i = 0; i < n; ++i) {
    const std::size_t len = 4 + next() % 200;
    gen.clear();
    for (std::size_t k = 0; k < len; ++k) gen.push_back(static_cast<char>(next()));
    if (i % 2 == 0) {
      input.assign(1, '\x01');
      input += gen;
    } else {
      std::string shard =
          moonquota::fuzz::canonical_entry_shard(reinterpret_cast<const std::uint8_t*>(gen.data()), gen.size() / 2);
      const unsigned flips = shard.empty() ? 0 : next() % 4;
      for (unsigned f = 0; f < flips; ++f) shard[next() % shard.size()] = static_cast<char>(next());
      input.assign(1, '\0');
      input += shard;
    }
    moonquota::fuzz::run_canonical_entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  }
  std::printf("%llu inputs, no difference\n", n);
  return 0;
}
