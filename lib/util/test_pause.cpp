#include "util/test_pause.hpp"

#include <signal.h>

#include <cstdlib>

namespace moonquota::util {

void pause_point(std::string_view name) {
  const char* wanted = std::getenv("MOONQUOTA_TEST_PAUSE_AT");
  if (wanted == nullptr || name != wanted) return;
  raise(SIGSTOP);
}

}  // namespace moonquota::util
