// TEST SUPPORT: runs the master-stand-in program (tools/master-stand-in, built from
// master_stand_in_main.cpp) as a child process on a loopback port it picks itself, and stops it
// (SIGTERM, then wait) when the handle goes away.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace moonquota::test {

class StandInProcess {
 public:
  // `args` are the stand-in's flags; the genuine r1 store, policy and restore time are used
  // unless `args` give --store/--snapshot-dir themselves.
  explicit StandInProcess(std::vector<std::string> args);
  ~StandInProcess();
  StandInProcess(const StandInProcess&) = delete;
  StandInProcess& operator=(const StandInProcess&) = delete;

  [[nodiscard]] bool running() const { return !m_url.empty(); }
  [[nodiscard]] const std::string& url() const { return m_url; }  // "http://127.0.0.1:PORT"

 private:
  pid_t m_pid = -1;
  std::string m_url;
};

// Flags that make the stand-in serve the genuine r1_quiescent_orphan capture's state.
[[nodiscard]] std::vector<std::string> genuine_r1_stand_in_args();
// The quota-reconcile metadata flags for the same store.
[[nodiscard]] std::vector<std::string> genuine_r1_metadata_args();

// A loopback port that nothing listens on (bound then closed), for "connection refused".
[[nodiscard]] int unused_loopback_port();

// A loopback socket that listens but never accepts nor answers: connects succeed (the kernel's
// backlog), every request then waits for an answer that never comes ("timed out").
class SilentListener {
 public:
  SilentListener();
  ~SilentListener();
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  [[nodiscard]] int port() const { return m_port; }
  [[nodiscard]] std::string host_port() const { return "127.0.0.1:" + std::to_string(m_port); }

 private:
  int m_fd = -1;
  int m_port = 0;
};

}  // namespace moonquota::test
