// --at parsing and point resolution of `snapshot-inspect survival`.
#include "inspect/survival_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace moonquota::inspect {
namespace {

std::string error_of(const std::string& list) {
  auto r = parse_survival_points(list);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
  return r.status().message();
}

TEST(SurvivalPoints, ParsesDelaysAbsoluteAndNow) {
  auto r = parse_survival_points("0,1500ms,10s,5m,1h,2d,@1787375520123,now");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 8u);
  const std::uint64_t expected[] = {0, 1500, 10'000, 300'000, 3'600'000, 172'800'000, 1787375520123, 0};
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ((*r)[i].value_ms, expected[i]) << i;
  EXPECT_EQ((*r)[6].kind, PointSpec::Kind::absolute);
  EXPECT_EQ((*r)[7].kind, PointSpec::Kind::now);
}

TEST(SurvivalPoints, BadValuesAreNamed) {
  EXPECT_EQ(error_of("1s,5x"), "--at '5x' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
  EXPECT_EQ(error_of("1500"), "--at '1500' needs a unit (ms, s, m, h, d); an absolute instant is written @EPOCH_MS");
  EXPECT_EQ(error_of("-1s"), "--at '-1s' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
  EXPECT_EQ(error_of("@"), "--at '@' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
  EXPECT_EQ(error_of("1s,,2s"), "--at '1s,,2s' has an empty item");
  EXPECT_EQ(error_of("99999999999999999999d"), "--at '99999999999999999999d' is more than 100 years");
  EXPECT_EQ(error_of("200000000000000d"), "--at '200000000000000d' is more than 100 years");
  // The audit's --at 99999999999d printed the year 273792727: 100 years is the limit.
  EXPECT_EQ(error_of("99999999999d"), "--at '99999999999d' is more than 100 years");
  EXPECT_EQ(error_of("36526d"), "--at '36526d' is more than 100 years");
  EXPECT_TRUE(parse_survival_points("36525d").ok());
  EXPECT_EQ(error_of("+"), "--at '+' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
  EXPECT_EQ(error_of("+30"), "--at '+30' needs a unit (ms, s, m, h, d); an absolute instant is written @EPOCH_MS");
  EXPECT_EQ(error_of("s"), "--at 's' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
}

// created_at 1,000,000; now 1,004,000. "+30s" is 30 s after now; an instant asked twice is one
// point, labelled as first typed.
TEST(SurvivalPoints, PlusDelaysCountFromNowAndDuplicatesMerge) {
  auto specs = parse_survival_points("+30s,30s,30000ms,+0,now,00010s");
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  EXPECT_EQ((*specs)[0].kind, PointSpec::Kind::after_now);
  EXPECT_EQ((*specs)[0].value_ms, 30'000u);
  auto points = resolve_survival_points(*specs, 1'000'000, 1'004'000, "");
  ASSERT_TRUE(points.ok()) << points.status().message();
  std::vector<std::pair<std::uint64_t, std::string>> got;
  for (const auto& p : *points) got.emplace_back(p.at_ms, p.label);
  const std::vector<std::pair<std::uint64_t, std::string>> want = {{1'000'000, "0"},   {1'004'000, "+0"},
                                                                   {1'004'000, "now"}, {1'010'000, "00010s"},
                                                                   {1'030'000, "30s"}, {1'034'000, "+30s"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ((*points)[5].delay_ms, 34'000);
}

// created_at 1,000,000; now 1,004,000. Asked: 10s, @999000, 2s. Added: 0 and now.
TEST(SurvivalPoints, ResolvesSortsAndAddsTheReferenceAndNow) {
  auto specs = parse_survival_points("10s,@999000,2s");
  ASSERT_TRUE(specs.ok());
  auto points = resolve_survival_points(*specs, 1'000'000, 1'004'000, "");
  ASSERT_TRUE(points.ok()) << points.status().message();
  ASSERT_EQ(points->size(), 5u);
  const std::uint64_t at[] = {999'000, 1'000'000, 1'002'000, 1'004'000, 1'010'000};
  const std::int64_t delay[] = {-1000, 0, 2000, 4000, 10'000};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ((*points)[i].at_ms, at[i]) << i;
    EXPECT_EQ((*points)[i].delay_ms, delay[i]) << i;
  }
  EXPECT_TRUE((*points)[1].added);
  EXPECT_EQ((*points)[1].label, "0");
  EXPECT_TRUE((*points)[3].is_now);
  EXPECT_TRUE((*points)[3].added);
}

TEST(SurvivalPoints, DelaysNeedADescriptor) {
  auto specs = parse_survival_points("now");
  ASSERT_TRUE(specs.ok());
  auto points = resolve_survival_points(*specs, std::nullopt, 5, "descriptor.txt is missing");
  ASSERT_FALSE(points.ok());
  EXPECT_NE(points.status().message().find("descriptor.txt is missing"), std::string::npos);
}

// Audit item 22: a list too long for one argument comes from a file; errors name its line.
TEST(SurvivalPoints, AFileHoldsPointsByLineAndComma) {
  auto specs =
      parse_survival_points_file("# restart drill\n0, 10s\r\n\n+30s  # in 30 s\n@1787375520123,now\n", "p.txt");
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  std::vector<std::string> texts;
  for (const auto& spec : *specs) texts.push_back(spec.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"0", "10s", "+30s", "@1787375520123", "now"}));

  auto bad = parse_survival_points_file("0\n\n5x\n", "p.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "--at-file 'p.txt' line 3: '5x' is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now");
  auto hole = parse_survival_points_file("1s,,2s\n", "p.txt");
  ASSERT_FALSE(hole.ok());
  EXPECT_EQ(hole.status().message(), "--at-file 'p.txt' line 1 has an empty item");
  auto none = parse_survival_points_file("# only a comment\n\n", "p.txt");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "--at-file 'p.txt' holds no point");
}

TEST(SurvivalPoints, MoreThanTheLimitIsRefused) {
  std::string list;
  for (std::size_t i = 0; i <= k_max_survival_points; ++i) list += (i == 0 ? "" : ",") + std::to_string(i) + "ms";
  auto from_flag = parse_survival_points(list);
  ASSERT_FALSE(from_flag.ok());
  EXPECT_EQ(from_flag.status().message(), "--at has more than 100000 points");
  std::replace(list.begin(), list.end(), ',', '\n');
  auto from_file = parse_survival_points_file(list, "p.txt");
  ASSERT_FALSE(from_file.ok());
  EXPECT_EQ(from_file.status().message(), "--at-file 'p.txt' has more than 100000 points");
  list.resize(list.rfind('\n'));  // exactly the limit
  EXPECT_TRUE(parse_survival_points_file(list, "p.txt").ok());
}

}  // namespace
}  // namespace moonquota::inspect
