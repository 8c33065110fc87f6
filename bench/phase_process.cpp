#include "phase_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "util/interrupt_signals.hpp"

namespace moonquota::bench {

namespace {

volatile std::sig_atomic_t g_signal = 0;
// Per util::k_interrupt_signals: whether catch_interrupts() took it over, and the action it had.
std::array<bool, util::k_interrupt_signals.size()> g_caught{};
std::array<struct sigaction, util::k_interrupt_signals.size()> g_previous{};

void record(int sig) { g_signal = sig; }

// Gives back every signal catch_interrupts() took over (in the child, and before dying of one).
void restore_interrupts() {
  for (std::size_t i = 0; i < util::k_interrupt_signals.size(); ++i) {
    if (g_caught[i]) util::restore_signal(util::k_interrupt_signals[i], g_previous[i]);
  }
}

}  // namespace

void catch_interrupts() {
  // Only a signal whose action is the default one: an ignored one stays ignored (nohup's SIGHUP,
  // SIGINT of a job a script started with &). No SA_RESTART: a blocking read or wait returns EINTR.
  for (std::size_t i = 0; i < util::k_interrupt_signals.size(); ++i) {
    g_caught[i] = util::take_over_signal(util::k_interrupt_signals[i], record, g_previous[i]);
  }
}

void die_of_interrupt() {
  const int sig = g_signal;
  if (sig == 0) return;
  restore_interrupts();
  std::raise(sig);
}

ChildOutcome run_child(const std::function<int()>& body) {
  ChildOutcome outcome;
  int fds[2];
  if (pipe(fds) != 0) {
    outcome.error = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    restore_interrupts();
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    _exit(body());
  }
  close(fds[1]);
  bool stopped = false;
  auto stop_on_interrupt = [&] {
    if (g_signal == 0 || stopped) return;
    kill(pid, SIGTERM);
    stopped = true;
  };
  char buf[4096];
  for (;;) {
    stop_on_interrupt();
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      outcome.out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  while (wait4(pid, &outcome.status, 0, &outcome.usage) < 0 && errno == EINTR) stop_on_interrupt();
  outcome.interrupted = g_signal != 0;
  return outcome;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

}  // namespace moonquota::bench
