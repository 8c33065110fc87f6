// Test-only pause points. When the environment variable MOONQUOTA_TEST_PAUSE_AT names a point,
// the process stops itself (SIGSTOP) when it reaches it, so that a crash test can SIGKILL it at an
// exact place in its work, whatever the machine's speed. Unset (always, outside tests), a pause
// point costs one getenv.
#pragma once

#include <string_view>

namespace moonquota::util {

// Points used today (tests/unit/history/history_store_test.cpp):
//   history-open      before the history store is opened
//   history-write     after the run's batch is built, before the synced write
//   history-written   after the synced write returned
//   output-commit     AtomicOutputStream::commit() of a file target: the whole report is in the
//                     temporary, before the fsync and the rename (tests/unit/util/atomic_stream_test.cpp)
void pause_point(std::string_view name);

}  // namespace moonquota::util
