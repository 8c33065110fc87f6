// match_upserts_in_flight: in-flight writes paired with the old buffers an UpsertStart parked in
// "discarded_replicas" (ttl = put time + 600000 ms), and everything that must not pair.
#include "restore/upsert_match.hpp"

#include <gtest/gtest.h>

namespace moonquota::restore {
namespace {

model::DiscardedItem item(std::int64_t ttl_ms, std::uint64_t mem_size) {
  model::DiscardedItem d;
  d.ttl_ms = ttl_ms;
  d.mem_size = mem_size;
  return d;
}

TEST(UpsertMatch, InFlightWriteTakesTheOldBuffersParkedAtItsPutTime) {
  std::map<std::string, TenantTally, std::less<>> tenants;
  tenants["a"].evidence.in_flight = {{1000, 64, 2}, {5000, 8, 1}};  // an upsert, then a plain put
  tenants["b"].evidence.in_flight = {{2000, 10, 1}};
  const std::vector<model::DiscardedItem> discarded = {item(601000, 32), item(601000, 32), item(602000, 4),
                                                       item(999, 7), item(-1, 5)};
  EXPECT_EQ(match_upserts_in_flight(tenants, discarded), 3u);
  const auto& a = tenants["a"].evidence.upserts;
  EXPECT_EQ(a.objects, 1u);
  EXPECT_TRUE(a.old_bytes == 64);
  EXPECT_TRUE(a.new_bytes == 128);
  const auto& b = tenants["b"].evidence.upserts;
  EXPECT_EQ(b.objects, 1u);
  EXPECT_TRUE(b.old_bytes == 4);
  EXPECT_TRUE(b.new_bytes == 10);
}

TEST(UpsertMatch, AnItemIsMatchedOnceAndAnotherTimeoutShiftsTheMatch) {
  std::map<std::string, TenantTally, std::less<>> tenants;
  tenants["a"].evidence.in_flight = {{1000, 1, 1}};
  tenants["b"].evidence.in_flight = {{1000, 1, 1}};  // same millisecond: the first tenant takes it
  const std::vector<model::DiscardedItem> discarded = {item(601000, 3)};
  EXPECT_EQ(match_upserts_in_flight(tenants, discarded), 1u);
  EXPECT_EQ(tenants["a"].evidence.upserts.objects, 1u);
  EXPECT_EQ(tenants["b"].evidence.upserts.objects, 0u);

  std::map<std::string, TenantTally, std::less<>> other;
  other["a"].evidence.in_flight = {{1000, 1, 1}};
  EXPECT_EQ(match_upserts_in_flight(other, discarded, 30'000), 0u);
  EXPECT_EQ(match_upserts_in_flight(other, {item(31000, 3)}, 30'000), 1u);
}

}  // namespace
}  // namespace moonquota::restore
