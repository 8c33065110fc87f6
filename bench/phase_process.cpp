#include "phase_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace moonquota::bench {

namespace {

volatile std::sig_atomic_t g_signal = 0;
constexpr int k_interrupts[] = {SIGINT, SIGTERM, SIGHUP};
bool g_caught[3] = {false, false, false};  // per k_interrupts: whether catch_interrupts() took it over

void record(int sig) { g_signal = sig; }

void set_disposition(int sig, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking read or wait returns EINTR
  sigaction(sig, &action, nullptr);
}

}  // namespace

void catch_interrupts() {
  for (int i = 0; i < 3; ++i) {
    struct sigaction current {};
    // An ignored signal stays ignored (nohup's SIGHUP, SIGINT of a job a script started with &).
    if (sigaction(k_interrupts[i], nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    set_disposition(k_interrupts[i], record);
    g_caught[i] = true;
  }
}

void die_of_interrupt() {
  const int sig = g_signal;
  if (sig == 0) return;
  set_disposition(sig, SIG_DFL);
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
    for (int i = 0; i < 3; ++i) {
      if (g_caught[i]) set_disposition(k_interrupts[i], SIG_DFL);
    }
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
