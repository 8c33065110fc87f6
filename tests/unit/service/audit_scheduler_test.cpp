// AuditScheduler with short real intervals. Every assertion is a lower bound on elapsed time or a
// count reached before a generous deadline, so a slow machine cannot fail it: no overlap, a slow
// audit delays the next (no catch-up burst), a new latest snapshot starts an audit, stop().
#include "service/audit_scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace moonquota::service {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Recorder {
  std::mutex mutex;
  std::vector<Clock::time_point> starts;
  std::vector<Clock::time_point> ends;
  std::vector<RunTrigger> triggers;
  std::atomic<int> active{0};
  std::atomic<int> max_active{0};

  std::size_t runs() {
    std::lock_guard lock(mutex);
    return ends.size();
  }
};

// Polls `done` until it holds or 20 s pass.
template <typename Pred>
bool eventually(Pred done) {
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return true;
}

AuditScheduler::RunFn recording(Recorder& r, std::function<milliseconds(std::size_t)> duration) {
  return [&r, duration](RunTrigger trigger) {
    const int now_active = ++r.active;
    int seen = r.max_active.load();
    while (now_active > seen && !r.max_active.compare_exchange_weak(seen, now_active)) {}
    std::size_t index = 0;
    {
      std::lock_guard lock(r.mutex);
      index = r.starts.size();
      r.starts.push_back(Clock::now());
      r.triggers.push_back(trigger);
    }
    std::this_thread::sleep_for(duration(index));
    --r.active;
    std::lock_guard lock(r.mutex);
    r.ends.push_back(Clock::now());
  };
}

TEST(AuditScheduler, RunsAtStartThenEveryIntervalNeverOverlapping) {
  Recorder r;
  AuditScheduler scheduler({20, 20}, recording(r, [](std::size_t) { return milliseconds(5); }), nullptr);
  std::thread loop([&] { scheduler.run(); });
  ASSERT_TRUE(eventually([&] { return r.runs() >= 5; }));
  scheduler.stop();
  loop.join();
  EXPECT_EQ(r.max_active.load(), 1);
  std::lock_guard lock(r.mutex);
  EXPECT_EQ(r.triggers.front(), RunTrigger::start);
  for (std::size_t i = 1; i < r.starts.size(); ++i) {
    EXPECT_EQ(r.triggers[i], RunTrigger::interval);
    // Due one interval after the previous start.
    EXPECT_GE(r.starts[i] - r.starts[i - 1], milliseconds(20)) << i;
    EXPECT_GE(r.starts[i], r.ends[i - 1]) << i;
  }
}

TEST(AuditScheduler, ASlowRunDelaysTheNextAndTheMissedTicksAreDropped) {
  Recorder r;
  // Interval 50 ms; the first audit takes 400 ms (8 ticks), the others 1 ms.
  AuditScheduler scheduler({50, 50}, recording(r, [](std::size_t i) { return milliseconds(i == 0 ? 400 : 1); }),
                           nullptr);
  std::thread loop([&] { scheduler.run(); });
  ASSERT_TRUE(eventually([&] { return r.runs() >= 4; }));
  scheduler.stop();
  loop.join();
  EXPECT_EQ(r.max_active.load(), 1);
  std::lock_guard lock(r.mutex);
  // The second starts only after the slow first one ended...
  EXPECT_GE(r.starts[1], r.ends[0]);
  // ...and the ticks the slow one missed are not run back to back: the third is one full
  // interval after the second.
  EXPECT_GE(r.starts[2] - r.starts[1], milliseconds(50));
  EXPECT_GE(r.starts[3] - r.starts[2], milliseconds(50));
}

TEST(AuditScheduler, ANewLatestSnapshotStartsAnAuditAtOnce) {
  Recorder r;
  std::mutex latest_mutex;
  std::optional<std::string> latest = std::string("20261129_124455_488");
  std::atomic<int> probes{0};
  auto probe = [&]() -> std::optional<std::string> {
    ++probes;
    std::lock_guard lock(latest_mutex);
    return latest;
  };
  // An interval of an hour: any second audit within the test comes from the probe.
  AuditScheduler scheduler({3'600'000, 10}, recording(r, [](std::size_t) { return milliseconds(1); }), probe);
  std::thread loop([&] { scheduler.run(); });
  ASSERT_TRUE(eventually([&] { return r.runs() == 1; }));
  // The same id probed again and again starts nothing.
  const int before = probes.load();
  ASSERT_TRUE(eventually([&] { return probes.load() >= before + 5; }));
  EXPECT_EQ(r.runs(), 1u);
  {
    std::lock_guard lock(latest_mutex);
    latest = "20261129_130000_000";
  }
  ASSERT_TRUE(eventually([&] { return r.runs() == 2; }));
  // A probe that cannot tell (nullopt) starts nothing either.
  {
    std::lock_guard lock(latest_mutex);
    latest.reset();
  }
  const int after = probes.load();
  ASSERT_TRUE(eventually([&] { return probes.load() >= after + 5; }));
  EXPECT_EQ(r.runs(), 2u);
  scheduler.stop();
  loop.join();
  std::lock_guard lock(r.mutex);
  EXPECT_EQ(r.triggers[0], RunTrigger::start);
  EXPECT_EQ(r.triggers[1], RunTrigger::new_latest);
}

TEST(AuditScheduler, StopEndsTheWaitAndLetsTheRunningAuditFinish) {
  Recorder r;
  AuditScheduler scheduler({3'600'000, 3'600'000}, recording(r, [](std::size_t) { return milliseconds(1); }), nullptr);
  std::thread loop([&] { scheduler.run(); });
  ASSERT_TRUE(eventually([&] { return r.runs() == 1; }));
  const auto asked = Clock::now();
  scheduler.stop();
  loop.join();  // an hour's wait ends at once
  EXPECT_LT(Clock::now() - asked, std::chrono::seconds(10));
  EXPECT_TRUE(scheduler.stopping());

  // A stop() during an audit: that audit finishes, no other starts.
  Recorder slow;
  std::atomic<bool> release{false};
  AuditScheduler second(
      {1, 1},
      [&](RunTrigger) {
        slow.runs();
        while (!release.load()) std::this_thread::sleep_for(milliseconds(1));
        std::lock_guard lock(slow.mutex);
        slow.ends.push_back(Clock::now());
      },
      nullptr);
  std::thread loop2([&] { second.run(); });
  second.stop();
  release = true;
  loop2.join();
  EXPECT_LE(slow.runs(), 1u);
}

}  // namespace
}  // namespace moonquota::service
