#include "util/thread_pool.hpp"

#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace moonquota::util {

void run_indexed(std::size_t count, unsigned threads, const std::function<void(std::size_t, unsigned)>& fn) {
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) fn(i, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&](unsigned worker) {
    for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) fn(i, worker);
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < threads; ++w) {
    // The system may refuse a thread (limits, memory): run the jobs on the workers there are.
    try {
      pool.emplace_back(work, w);
    } catch (const std::system_error&) { break; }
  }
  work(0);
  for (auto& t : pool) t.join();
}

unsigned default_thread_count() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace moonquota::util
