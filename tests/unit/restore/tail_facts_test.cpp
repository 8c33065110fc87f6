// restore/tail_facts: the streaming promotion's replay target answers touched() and holds()
// exactly (its filter is rebuilt as the table grows), keeps each key's final record only, and its
// cache hints change nothing.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "restore/fingerprint_runs.hpp"
#include "restore/tail_facts.hpp"

namespace moonquota::restore {
namespace {

format::MetadataPayload payload_of_size(std::uint64_t size, std::uint64_t address) {
  format::MetadataPayload p;
  p.size = size;
  format::PayloadReplica r;
  r.variant = format::payload_variant::memory;
  r.buffer_size = size;
  r.buffer_address = address;
  r.transport_endpoint = "10.0.0." + std::to_string(address % 3) + ":17812";
  p.replicas.push_back(r);
  return p;
}

TEST(TailFacts, AnswersEveryKeyExactlyThroughManyGrowths) {
  TailFacts tail;
  std::map<std::string, int> model;  // key -> 0 erased, 1 stored, 2 placeholder
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const std::string key = "k" + std::to_string(rng() % 9000);
    (void)tail.prefetch_slot("t", key);  // a hint: changes nothing
    switch (rng() % 3) {
      case 0:
        tail.erase("t", key);
        model[key] = 0;
        break;
      case 1:
        tail.store_payload("t", key, payload_of_size(100 + rng() % 50, rng() % 1000));
        model[key] = 1;
        break;
      default: tail.store_placeholder("t", key); model[key] = 2;
    }
  }
  for (int k = 0; k < 12000; ++k) {
    const std::string key = "k" + std::to_string(k);
    const auto it = model.find(key);
    const std::uint64_t fingerprint = pair_fingerprint("t", key);
    tail.prefetch_filter(fingerprint);
    tail.prefetch_touched_slot(fingerprint);
    EXPECT_EQ(tail.touched("t", key, fingerprint), it != model.end()) << key;
    EXPECT_EQ(tail.holds("t", key), it != model.end() && it->second != 0) << key;
    EXPECT_FALSE(tail.touched("other", key, pair_fingerprint("other", key))) << key;
  }
  std::size_t held = 0;
  tail.for_each_held([&](const TailFacts::HeldObject& o, std::span<const ReplicaFacts> facts) {
    ++held;
    ASSERT_EQ(o.tenant, "t");
    const int state = model.at(std::string(o.key));
    EXPECT_NE(state, 0);
    EXPECT_EQ(o.placeholder, state == 2);
    EXPECT_EQ(facts.size(), state == 1 ? 1u : 0u);
    if (state == 1) {
      EXPECT_EQ(facts[0].buffer_size, o.size);
      EXPECT_EQ(facts[0].endpoint.substr(0, 7), "10.0.0.");
    }
  });
  std::size_t expected = 0;
  for (const auto& [key, state] : model) expected += state != 0;
  EXPECT_EQ(held, expected);
}

TEST(TailFacts, AnEmptyTailTouchesNothing) {
  const TailFacts tail;
  const std::uint64_t fingerprint = pair_fingerprint("t", "k");
  tail.prefetch_filter(fingerprint);
  tail.prefetch_touched_slot(fingerprint);
  EXPECT_FALSE(tail.touched("t", "k", fingerprint));
  EXPECT_FALSE(tail.holds("t", "k"));
}

}  // namespace
}  // namespace moonquota::restore
