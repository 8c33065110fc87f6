// The signals by which a person or a supervisor ends a run (Ctrl-C, `kill`, a closed terminal),
// and the one rule for taking them over: a program cleans up on them (a temporary file, a scratch
// directory, a child process) and then dies of the signal as if it had not been caught.
//
// A signal is taken over only while its action is the default one: a signal the process ignores
// (nohup's SIGHUP, the SIGINT of a job a shell started with `&`) stays ignored, and a handler the
// program installed itself stays in charge. Used by util/atomic_stream, forge/s3_publish and the
// benchmark's phase processes.
#pragma once

#include <signal.h>

#include <array>

namespace moonquota::util {

inline constexpr std::array<int, 3> k_interrupt_signals = {SIGINT, SIGTERM, SIGHUP};

// Installs `handler` for `signal_number` (empty mask, no SA_RESTART: a blocking read or wait
// returns EINTR) when the signal's action is the default one, and stores that action in
// `previous`. False, with nothing changed, when the action is not the default (or sigaction
// fails). Async-signal-safe.
bool take_over_signal(int signal_number, void (*handler)(int), struct sigaction& previous);

// Puts back the action take_over_signal() stored. Async-signal-safe.
void restore_signal(int signal_number, const struct sigaction& previous);

}  // namespace moonquota::util
