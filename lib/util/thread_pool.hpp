// A fixed-size pool that runs indexed jobs: run_indexed(n, fn) calls fn(i, worker) for every
// i in [0, n) across the workers and returns when all are done. Workers never outlive the pool.
#pragma once

#include <cstddef>
#include <functional>

namespace moonquota::util {

// Runs fn(index, worker_id) for index in [0, count) on `threads` threads (>= 1). The calling
// thread takes part. Jobs are handed out in index order. When the system refuses to start a
// thread, the jobs run on the threads already started (never an exception).
void run_indexed(std::size_t count, unsigned threads, const std::function<void(std::size_t, unsigned)>& fn);

// std::thread::hardware_concurrency(), at least 1.
[[nodiscard]] unsigned default_thread_count();

}  // namespace moonquota::util
