#include "history/history_store.hpp"
#include "history/trend.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::history {
namespace {

RunRecord make_run(std::uint64_t at_ms, std::size_t tenants, std::int64_t delta) {
  RunRecord r;
  r.run_at_ms = at_ms;
  r.live_source = "http://127.0.0.1:9003";
  r.snapshot_id = "20261129_124455_488";
  r.metadata_point_ms = 1795956295488;
  for (std::size_t i = 0; i < tenants; ++i) {
    r.tenants.push_back({"tenant-" + std::to_string(i), 1000, static_cast<std::uint64_t>(1000 + delta), delta,
                         delta == 0 ? "match" : "live_over", delta == 0, delta, delta == 0});
  }
  return r;
}

TEST(HistoryStore, RoundTripAcrossReopenWithRawByteIds) {
  test::TempDir dir;
  RunRecord first = make_run(1000, 2, 0);
  first.tenants.push_back({std::string("bin\x01\xff\"id", 8), 5, 6, 1, "live_over", false, -3, true});
  first.model = "live";
  RunRecord second = make_run(2000, 3, 64);
  {
    auto store = HistoryStore::open(dir.str());
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE((*store)->append(first).ok());
    ASSERT_TRUE((*store)->append(second).ok());
    EXPECT_FALSE(first.run_id.empty());
  }
  auto store = HistoryStore::open_existing(dir.str());
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto runs = (*store)->runs();
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0], first);
  EXPECT_EQ((*runs)[1], second);
  auto since = (*store)->runs(1500);
  ASSERT_EQ(since->size(), 1u);
  auto points = (*store)->tenant_points(std::string("bin\x01\xff\"id", 8));
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ((*points)[0].run_at_ms, 1000u);
  EXPECT_EQ((*points)[0].point.delta_bytes, 1);
  auto t1 = (*store)->tenant_points("tenant-1");
  ASSERT_EQ(t1->size(), 2u);
  EXPECT_EQ((*t1)[1].point.delta_bytes, 64);
}

TEST(HistoryStore, OpenExistingOnAMissingDirectoryIsNotFound) {
  test::TempDir dir;
  auto store = HistoryStore::open_existing(dir.str() + "/absent");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), util::StatusCode::not_found);
}

TEST(HistoryStore, OpenExistingCreatesNothing) {
  test::TempDir dir;
  const std::string absent = dir.str() + "/absent";
  auto missing = HistoryStore::open_existing(absent);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "history store " + absent + " does not exist");
  EXPECT_FALSE(std::filesystem::exists(absent));
  auto empty = HistoryStore::open_existing(dir.str());  // a directory without a store in it
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), util::StatusCode::not_found);
  EXPECT_NE(empty.status().message().find(dir.str()), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Issue 11 item 9: `history --db MISSING` exited 3 but left a RocksDB directory behind.
TEST(HistoryStore, HistoryCommandOnAMissingStoreExitsThreeAndCreatesNothing) {
  test::TempDir dir;
  const std::string absent = dir.str() + "/missing";
  auto run = test::run_tool("quota-reconcile", {"history", "--db", absent});
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("quota-reconcile: history store " + absent + " does not exist"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(absent));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(HistoryStore, RecordAndAnalyseFindsAPersistentLeak) {
  test::TempDir dir;
  for (std::uint64_t i = 0; i < 3; ++i) {
    auto t =
        record_and_analyse(dir.str(), make_run(1000 + i * 3'600'000, 1, 100 * static_cast<std::int64_t>(i + 1)), 3);
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_EQ(t->tenants[0].persistent, i == 2);
    if (i == 2) { EXPECT_NEAR(*t->tenants[0].rate_bytes_per_hour, 100.0, 1e-6); }
  }
}

// A long-running caller (quota-reconcile serve) reads back only a window of runs: older runs stay
// in the store but leave the trend.
TEST(HistoryStore, RecordAndAnalyseSinceReadsOnlyTheWindow) {
  test::TempDir dir;
  for (std::uint64_t i = 0; i < 4; ++i) {
    const std::uint64_t at_ms = 2000 + i * 1000;
    auto t = record_and_analyse(dir.str(), make_run(at_ms, 1, 100), 3, 100, at_ms - 1500);
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_EQ(t->run_times_ms.size(), i == 0 ? 1u : 2u) << i;  // this run and the one before
  }
  auto all = HistoryStore::open_existing(dir.str());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)->runs(0)->size(), 4u);
}

// Two runs at once (overlapping cron jobs): the second waits for the store's lock, then records.
TEST(HistoryStore, RecordWaitsForAStoreHeldByAnotherRun) {
  test::TempDir dir;
  auto holder = HistoryStore::open(dir.str());
  ASSERT_TRUE(holder.ok()) << holder.status().message();
  auto blocked = record_and_analyse(dir.str(), make_run(1000, 1, 0), 3, 100);
  ASSERT_FALSE(blocked.ok()) << "RocksDB lets one opener in at a time";
  EXPECT_EQ(blocked.status().code(), util::StatusCode::io_error);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holder->reset();
  });
  auto waited = record_and_analyse(dir.str(), make_run(2000, 1, 0), 3, 5000);
  release.join();
  ASSERT_TRUE(waited.ok()) << waited.status().message();
  EXPECT_EQ(waited->run_times_ms.size(), 1u);
}

// A process killed at any point never corrupts the store nor loses a committed run. The child
// appends deterministic runs in a loop and acknowledges each one on a pipe after append()
// returned; the parent SIGKILLs it at a varied moment (before the first run, i.e. during open, or
// after 0-3 acknowledged runs plus a random delay: mid-batch, mid-sync, between runs), then
// reopens the store and checks that every run ever committed is there, byte for byte equal to
// what was written, that the runs of the killed writer form a prefix (at most one beyond the
// acknowledged ones: durable but killed before the ack), and that the per-tenant index agrees.
TEST(HistoryStoreCrash, KilledWritersNeverCorruptOrLoseRuns) {
  test::TempDir dir;
  std::mt19937 rng(12345);
  constexpr std::size_t k_tenants = 400;
  auto expected_run = [](int round, std::uint64_t i) {
    RunRecord r =
        make_run(static_cast<std::uint64_t>(round) * 1'000'000 + i + 1, k_tenants, static_cast<std::int64_t>(i));
    r.run_id = "w" + std::to_string(round) + "-" + std::to_string(i);
    return r;
  };
  std::vector<RunRecord> committed;  // every run found so far, in store order
  int killed_mid_open = 0;
  for (int round = 0; round < 14; ++round) {
    int ack[2];
    ASSERT_EQ(pipe(ack), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(ack[0]);
      auto store = HistoryStore::open(dir.str());
      if (!store.ok()) _exit(3);
      for (std::uint64_t i = 0;; ++i) {
        RunRecord r = expected_run(round, i);
        if (!(*store)->append(r).ok()) _exit(4);
        char one = 1;
        if (write(ack[1], &one, 1) != 1) _exit(5);
      }
    }
    close(ack[1]);
    std::uint64_t acked = 0;
    char c = 0;
    if (round % 4 == 1) {
      usleep(static_cast<useconds_t>(rng() % 3000));  // most likely while RocksDB is still opening
      ++killed_mid_open;
    } else {
      const std::uint64_t wait_acks = rng() % 4;
      while (acked < wait_acks && read(ack[0], &c, 1) == 1) ++acked;
      usleep(static_cast<useconds_t>(rng() % 20000));
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer failed on its own, status " << status;
    while (read(ack[0], &c, 1) == 1) ++acked;
    close(ack[0]);

    auto store = HistoryStore::open(dir.str());
    ASSERT_TRUE(store.ok()) << "round " << round << ": " << store.status().message();
    auto runs = (*store)->runs();
    ASSERT_TRUE(runs.ok()) << "round " << round << ": " << runs.status().message();
    ASSERT_GE(runs->size(), committed.size() + acked) << "round " << round << ": a committed run was lost";
    ASSERT_LE(runs->size(), committed.size() + acked + 1) << "round " << round << ": runs from nowhere";
    for (std::size_t k = 0; k < committed.size(); ++k) {
      ASSERT_EQ((*runs)[k], committed[k]) << "round " << round << ": an earlier run changed";
    }
    for (std::size_t k = committed.size(); k < runs->size(); ++k) {
      ASSERT_EQ((*runs)[k], expected_run(round, k - committed.size())) << "round " << round << ": a damaged run";
    }
    committed = *runs;
    auto points = (*store)->tenant_points("tenant-" + std::to_string(k_tenants - 1));
    ASSERT_TRUE(points.ok());
    EXPECT_EQ(points->size(), runs->size()) << "tenant index and runs disagree: a batch was split";
  }
  EXPECT_GT(committed.size(), 0u);
  EXPECT_GT(killed_mid_open, 0);
}

// The same with the real tool: quota-reconcile --db runs to completion, then is SIGKILLed at each
// point of its history write (MOONQUOTA_TEST_PAUSE_AT stops it there: util/test_pause.hpp, so the
// kill lands where it should whatever the machine's speed), then completes once more. Every
// completed run must be in the store, complete, and the store must open and read cleanly.
TEST(HistoryStoreCrash, KilledToolRunsLeaveAReadableHistory) {
  test::TempDir dir;
  const std::string r1 = "snapshots/genuine-live/r1_quiescent_orphan/";
  const std::string binary = test::binary_path("tools/quota-reconcile");
  const std::vector<std::string> args = {"--store",
                                         test::source_path(r1 + "store"),
                                         "--policy",
                                         test::source_path(r1 + "policy.yaml"),
                                         "--restore-time",
                                         "1795956296529",
                                         "--live-json",
                                         test::source_path(r1 + "api_list.json"),
                                         "--db",
                                         dir.str() + "/db",
                                         "--format",
                                         "json",
                                         "--output",
                                         dir.str() + "/out.json",
                                         "-q"};
  auto first = test::run_tool("quota-reconcile", args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::size_t completed = 1;
  std::size_t durable_kills = 0;  // killed after the synced write: the run is in the store
  const std::vector<std::string> points = {"history-open", "history-write", "history-written"};
  for (int round = 0; round < 9; ++round) {
    const std::string& point = points[static_cast<std::size_t>(round) % points.size()];
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::vector<std::string> argv_text = args;
      argv_text.insert(argv_text.begin(), binary);
      std::vector<char*> argv;
      for (auto& a : argv_text) argv.push_back(a.data());
      argv.push_back(nullptr);
      setenv("MOONQUOTA_TEST_PAUSE_AT", point.c_str(), 1);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, WUNTRACED), pid);
    ASSERT_TRUE(WIFSTOPPED(status)) << point << ": the tool never reached its pause point (status " << status << ")";
    kill(pid, SIGKILL);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << point;
    if (point == "history-written") ++durable_kills;
    auto store = HistoryStore::open_existing(dir.str() + "/db");
    ASSERT_TRUE(store.ok()) << point << ": " << store.status().message();
    auto runs = (*store)->runs();
    ASSERT_TRUE(runs.ok()) << point << ": " << runs.status().message();
    EXPECT_EQ(runs->size(), completed + durable_kills) << "killed at " << point;
  }
  auto last = test::run_tool("quota-reconcile", args);
  ASSERT_EQ(last.exit_code, 0) << last.err;
  ++completed;
  auto history = test::run_tool("quota-reconcile", {"history", "--db", dir.str() + "/db", "--format", "json"});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  auto store = HistoryStore::open_existing(dir.str() + "/db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto runs = (*store)->runs();
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  EXPECT_EQ(runs->size(), completed + durable_kills);
  for (const auto& r : *runs) {
    ASSERT_EQ(r.tenants.size(), (*runs)[0].tenants.size()) << "a partial run";
    for (const auto& p : r.tenants) EXPECT_EQ(p.verdict, "match") << p.tenant_id;
  }
}

}  // namespace
}  // namespace moonquota::history
