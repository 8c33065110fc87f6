// The invariant checks of the fuzz entries: a broken invariant aborts, which libFuzzer reports as
// a crash with its input (and the corpus replay test as a failed test).
#pragma once

#include <cstdlib>

#include "util/status.hpp"

namespace moonquota::fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

// A refusal is fine; a refusal that does not say why is not.
template <typename T>
void check_error(const util::Result<T>& r) {
  if (!r.ok()) check(!r.status().message().empty());
}

}  // namespace moonquota::fuzz
