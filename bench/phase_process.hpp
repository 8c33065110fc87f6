// moonquota-bench's children: the forge and every phase run in a process of their own (a phase so
// that its peak RSS is its own). An interrupt of the parent (SIGINT from a terminal, SIGTERM from
// `timeout` or a job runner, SIGHUP from a closed terminal) stops the running child, and the parent then removes what
// it forged before it dies of the same signal: a killed run leaves no store behind.
#pragma once

#include <sys/resource.h>

#include <functional>
#include <string>

namespace moonquota::bench {

// Records SIGINT, SIGTERM and SIGHUP instead of dying of them (a blocking wait for a child returns);
// one that is ignored (nohup) stays ignored. Children get the default dispositions back.
void catch_interrupts();
// Dies of the signal caught (default disposition, raised again); returns only when there was none.
void die_of_interrupt();

struct ChildOutcome {
  std::string out;           // what the child wrote to its stdout
  int status = 0;            // waitpid's status
  struct rusage usage {};    // the child's CPU time and peak RSS
  bool interrupted = false;  // the parent was interrupted: the child was stopped
  std::string error;         // the child could not be started
};

// Runs `body` in a forked child with stdout into a pipe; the child exits with body's return value
// (`body` may also exec). Returns once the child has ended; on an interrupt of the parent the child
// is sent SIGTERM first.
[[nodiscard]] ChildOutcome run_child(const std::function<int()>& body);

// A one-line description of a waitpid status ("exit 3", "signal 9").
[[nodiscard]] std::string describe_status(int status);

}  // namespace moonquota::bench
