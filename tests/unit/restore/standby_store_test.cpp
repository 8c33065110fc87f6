// The standby store's open-addressing object map against std::map on random puts, inserts and
// erases (backward-shift deletion, the last entry moved into an erased one's place, growth).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <utility>

#include "restore/standby_store.hpp"

namespace moonquota::restore {
namespace {

using Model = std::map<std::pair<std::string, std::string>, std::uint64_t>;

void expect_same(const StandbyStore& store, const Model& model) {
  ASSERT_EQ(store.size(), model.size());
  Model seen;
  for (const StandbyEntry& e : store.entries()) {
    seen[{std::string(store.tenant_name(e.tenant)), e.key}] = e.object.size;
  }
  EXPECT_EQ(seen, model);
  for (const auto& [k, size] : model) {
    const StandbyObject* o = store.find(k.first, k.second);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->size, size);
  }
}

TEST(StandbyStore, MatchesAnOrderedMapUnderRandomOperations) {
  std::mt19937_64 rng(15);
  StandbyStore store;
  Model model;
  const std::string tenants[] = {"default", "a", "b", std::string("x\x01y", 3), ""};
  for (int round = 0; round < 200000; ++round) {
    const std::string& tenant = tenants[rng() % 5];
    // Few keys: many collisions, erases and re-inserts; some keys hold NUL.
    std::string key = "k" + std::to_string(rng() % 3000);
    if (rng() % 7 == 0) key += std::string(1, '\0') + "z";
    const auto size = static_cast<std::uint64_t>(round);
    switch (rng() % 4) {
      case 0:
      case 1: {
        StandbyObject o;
        o.size = size;
        store.put(tenant, key, std::move(o));
        model[{tenant, key}] = size;
        break;
      }
      case 2: {
        StandbyObject o;
        o.size = size;
        const bool fresh = model.emplace(std::pair{tenant, key}, size).second;
        EXPECT_EQ(store.insert_new(tenant, key, std::move(o)), fresh);
        break;
      }
      default: store.erase(tenant, key); model.erase({tenant, key});
    }
    if (round % 20000 == 0) expect_same(store, model);
  }
  expect_same(store, model);
  EXPECT_EQ(store.find("never", "k1"), nullptr);
  store.erase("never", "k1");
  for (const auto& [k, size] : Model(model)) {
    store.erase(k.first, k.second);
    model.erase(k);
  }
  expect_same(store, model);
  EXPECT_TRUE(store.empty());
  store.clear();
  store.put("t", "k", {});
  EXPECT_EQ(store.size(), 1u);
  EXPECT_EQ(store.tenant_name(store.entries().front().tenant), "t");
}

}  // namespace
}  // namespace moonquota::restore
