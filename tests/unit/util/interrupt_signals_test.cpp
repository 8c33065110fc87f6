#include "util/interrupt_signals.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace moonquota::util {
namespace {

// SIGUSR1/SIGUSR2 stand in for the interrupt signals: the rule is the same for any signal, and
// the test process's own SIGINT/SIGTERM/SIGHUP stay untouched.
volatile std::sig_atomic_t g_seen = 0;
void note(int sig) { g_seen = sig; }
void other_handler(int) {}

struct sigaction current_action(int sig) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return now;
}

// Restores a signal's action when the test ends, whatever it asserted.
class SavedAction {
 public:
  explicit SavedAction(int sig) : m_sig(sig), m_saved(current_action(sig)) {}
  SavedAction(const SavedAction&) = delete;
  SavedAction& operator=(const SavedAction&) = delete;
  ~SavedAction() { ::sigaction(m_sig, &m_saved, nullptr); }

 private:
  int m_sig;
  struct sigaction m_saved;
};

void set_handler(int sig, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  ::sigaction(sig, &action, nullptr);
}

TEST(InterruptSignals, AreTheThreeThatEndARunByHand) {
  EXPECT_EQ(k_interrupt_signals, (std::array<int, 3>{SIGINT, SIGTERM, SIGHUP}));
}

TEST(InterruptSignals, ADefaultActionIsTakenOverAndGivenBack) {
  SavedAction saved(SIGUSR1);
  set_handler(SIGUSR1, SIG_DFL);
  struct sigaction previous {};
  ASSERT_TRUE(take_over_signal(SIGUSR1, note, previous));
  EXPECT_EQ(previous.sa_handler, SIG_DFL);
  const struct sigaction installed = current_action(SIGUSR1);
  EXPECT_EQ(installed.sa_handler, note);
  EXPECT_EQ(installed.sa_flags & SA_RESTART, 0) << "a blocking read or wait must return EINTR";
  g_seen = 0;
  ASSERT_EQ(std::raise(SIGUSR1), 0);
  EXPECT_EQ(g_seen, SIGUSR1);
  restore_signal(SIGUSR1, previous);
  EXPECT_EQ(current_action(SIGUSR1).sa_handler, SIG_DFL);
}

TEST(InterruptSignals, AnIgnoredSignalStaysIgnored) {
  SavedAction saved(SIGUSR2);
  set_handler(SIGUSR2, SIG_IGN);  // nohup's SIGHUP, the SIGINT of a background job
  struct sigaction previous {};
  previous.sa_handler = other_handler;
  EXPECT_FALSE(take_over_signal(SIGUSR2, note, previous));
  EXPECT_EQ(current_action(SIGUSR2).sa_handler, SIG_IGN);
  EXPECT_EQ(previous.sa_handler, other_handler) << "nothing is stored when nothing is taken over";
}

TEST(InterruptSignals, AProgramsOwnHandlerStaysInCharge) {
  SavedAction saved(SIGUSR2);
  set_handler(SIGUSR2, other_handler);
  struct sigaction previous {};
  EXPECT_FALSE(take_over_signal(SIGUSR2, note, previous));
  EXPECT_EQ(current_action(SIGUSR2).sa_handler, other_handler);
}

TEST(InterruptSignals, AnInvalidSignalIsNotTakenOver) {
  struct sigaction previous {};
  EXPECT_FALSE(take_over_signal(-1, note, previous));
}

}  // namespace
}  // namespace moonquota::util
