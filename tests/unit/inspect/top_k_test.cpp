// TopK keeps the K best items in a deterministic order whatever the offer order.
#include "inspect/top_k.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

namespace moonquota::inspect {
namespace {

TEST(TopK, KeepsTheLargestKBestFirst) {
  TopK<int, std::greater<>> top(3);
  for (int v : {5, 1, 9, 7, 3, 9, 2}) top.offer(v);
  EXPECT_EQ(top.sorted(), (std::vector<int>{9, 9, 7}));
}

TEST(TopK, ZeroCapacityKeepsNothing) {
  TopK<int, std::greater<>> top(0);
  top.offer(1);
  EXPECT_TRUE(top.sorted().empty());
}

TEST(TopK, MergeEqualsOneCollectorWhateverTheSplit) {
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), 0);
  std::shuffle(values.begin(), values.end(), std::mt19937(7));
  TopK<int, std::greater<>> all(10);
  TopK<int, std::greater<>> left(10);
  TopK<int, std::greater<>> right(10);
  for (std::size_t i = 0; i < values.size(); ++i) {
    all.offer(values[i]);
    (i % 3 == 0 ? left : right).offer(values[i]);
  }
  left.merge(right);
  EXPECT_EQ(left.sorted(), all.sorted());
  EXPECT_EQ(all.sorted().front(), 999);
}

}  // namespace
}  // namespace moonquota::inspect
