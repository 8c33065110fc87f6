#include "reconcile/ha_metrics.hpp"

#include <gtest/gtest.h>

#include <string>

#include "reconcile/master_client.hpp"
#include "support/master_stand_in_process.hpp"

namespace moonquota::reconcile {
namespace {

// GET /metrics of a running stand-in.
std::string metrics_of(const test::StandInProcess& stand_in) {
  auto address = parse_master_url(stand_in.url());
  EXPECT_TRUE(address.ok());
  MasterClient client(*address, HttpTimeouts{});
  auto answer = client.get("/metrics");
  EXPECT_TRUE(answer.ok()) << answer.status().to_string();
  return answer.ok() ? answer->body : std::string();
}

// The stand-in serves the HA section as a master at 3b5a5941 does (over real HTTP); the reader
// keeps A, the standby state, the perf-build gauges when present, and the gauges upstream never
// sets apart.
TEST(HaMetrics, AStandbysSectionGivesItsAppliedSequence) {
  test::StandInProcess standby({"--ha-applied-sequence", "41", "--ha-standby-state", "3"});
  ASSERT_TRUE(standby.running());
  auto m = read_ha_metrics(metrics_of(standby));
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_TRUE(m->ha_section);
  EXPECT_EQ(m->applied_sequence, 41u);
  EXPECT_EQ(m->standby_state, 3u);
  EXPECT_EQ(m->last_sequence_unset, 0u);
  EXPECT_EQ(m->standby_lag_unset, 0u);
  EXPECT_FALSE(m->perf_durable_sequence.has_value());  // not a perf build
}

TEST(HaMetrics, APerfBuildsPrimaryGivesItsDurableSequence) {
  test::StandInProcess primary(
      {"--ha-perf-durable-sequence", "46", "--ha-perf-last-batch-id", "7", "--ha-perf-committed-queue-depth", "3"});
  ASSERT_TRUE(primary.running());
  auto m = read_ha_metrics(metrics_of(primary));
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->perf_durable_sequence, 46u);
  EXPECT_EQ(m->perf_last_batch_id, 7u);
  EXPECT_EQ(m->perf_committed_queue_depth, 3u);
}

TEST(HaMetrics, IntegralFloatsAreReadAndOtherValuesNamed) {
  auto m = read_ha_metrics("ha_oplog_applied_sequence_id 4.6e1\nha_standby_state 2.000000\n");
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->applied_sequence, 46u);
  EXPECT_EQ(m->standby_state, 2u);
  for (const char* bad : {"ha_oplog_applied_sequence_id -1\n", "ha_oplog_applied_sequence_id 1.5\n",
                          "ha_oplog_applied_sequence_id NaN\n", "ha_oplog_applied_sequence_id +Inf\n",
                          "x 1\nha_oplog_applied_sequence_id 1\nha_oplog_applied_sequence_id 2\n"}) {
    auto r = read_ha_metrics(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("line"), std::string::npos) << r.status().message();
  }
}

TEST(HaMetrics, AMasterWithoutHaHasNoSection) {
  auto m = read_ha_metrics("# HELP master_key_count Total number of keys\nmaster_key_count 42\n");
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->ha_section);
  EXPECT_FALSE(m->applied_sequence.has_value());
}

}  // namespace
}  // namespace moonquota::reconcile
