#include "app/golden_command.hpp"

#include <gtest/gtest.h>

#include "golden/fixture_set.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

TEST(GoldenFixtures, OurSnapshotsAreAFixtureSet) {
  auto set = golden::find_fixture_set(test::source_path("snapshots"));
  ASSERT_TRUE(set.ok()) << set.status().to_string();
  EXPECT_EQ(set->name, "snapshots");
  std::vector<std::string> names;
  for (const auto& f : set->fixtures) names.push_back(f.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "genuine/s1_single_segment_basic"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "sample"), names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

}  // namespace
}  // namespace moonquota::app
