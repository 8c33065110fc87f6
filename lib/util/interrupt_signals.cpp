#include "util/interrupt_signals.hpp"

namespace moonquota::util {

bool take_over_signal(int signal_number, void (*handler)(int), struct sigaction& previous) {
  struct sigaction current {};
  if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) return false;
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  if (::sigaction(signal_number, &action, nullptr) != 0) return false;
  previous = current;
  return true;
}

void restore_signal(int signal_number, const struct sigaction& previous) {
  ::sigaction(signal_number, &previous, nullptr);
}

}  // namespace moonquota::util
