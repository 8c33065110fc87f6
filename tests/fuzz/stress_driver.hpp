// What the plain stress drivers (canonical-entry-stress, oplog-payload-stress) share: the command
// line `NAME N [SEED]` and a xorshift64 generator seeded from it, so a run is repeatable from the
// numbers tests/fuzz/README.md records.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace moonquota::fuzz {

struct StressRun {
  unsigned long long inputs = 0;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;

  // The next pseudo-random number (xorshift64).
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

// Reads `N [SEED]`; false (after a usage line on stderr) when N is missing.
inline bool parse_stress_run(int argc, char** argv, const char* name, StressRun& run) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [SEED]\n", name);
    return false;
  }
  run.inputs = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) run.state = std::strtoull(argv[2], nullptr, 10) | 1;
  return true;
}

}  // namespace moonquota::fuzz
