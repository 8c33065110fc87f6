#include "reconcile/prometheus_text.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace moonquota::reconcile {
namespace {

TEST(PrometheusText, ParsesLabelsEscapesCommentsSpecialValuesAndTimestamps) {
  const std::string text =
      "# HELP m_total A \\\\ help\\nline\n"
      "# TYPE m_total counter\n"
      "#   a free comment\n"
      "\n"
      "m_total{a=\"x\\\"y\",b=\"back\\\\slash\",c=\"new\\nline\",} 12 1795956295488\r\n"
      "   up 1\n"
      "nan_metric NaN\n"
      "inf_metric{le=\"+Inf\"} +Inf\n"
      "neg_inf -Inf\n"
      "float_metric\t-1.5e3\n"
      "empty_labels{} 7\n";
  auto r = parse_prometheus_text(text);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->samples.size(), 7u);
  const auto& m = r->samples[0];
  EXPECT_EQ(m.name, "m_total");
  EXPECT_EQ(*m.label("a"), "x\"y");
  EXPECT_EQ(*m.label("b"), "back\\slash");
  EXPECT_EQ(*m.label("c"), "new\nline");
  EXPECT_EQ(m.value_text, "12");
  ASSERT_TRUE(m.timestamp_ms.has_value());
  EXPECT_EQ(*m.timestamp_ms, 1795956295488);
  EXPECT_EQ(m.line, 5u);
  EXPECT_EQ(r->types.at("m_total"), "counter");
  EXPECT_EQ(r->help.at("m_total"), "A \\ help\nline");
  EXPECT_EQ(r->samples[1].name, "up");
  EXPECT_TRUE(std::isnan(r->samples[2].value));
  EXPECT_TRUE(std::isinf(r->samples[3].value) && r->samples[3].value > 0);
  EXPECT_EQ(*r->samples[3].label("le"), "+Inf");
  EXPECT_TRUE(std::isinf(r->samples[4].value) && r->samples[4].value < 0);
  EXPECT_DOUBLE_EQ(r->samples[5].value, -1500);
  EXPECT_TRUE(r->samples[6].labels.empty());
}

TEST(PrometheusText, ErrorsNameLineAndColumn) {
  struct Case {
    const char* text;
    const char* needle;
  } cases[] = {
      {"ok 1\nbad{a=\"x} 1\n", "metrics line 2"},
      {"m{a=\"1\",a=\"2\"} 1\n", "second 'a'"},
      {"m{a=\"\\t\"} 1\n", "escape"},
      {"m 1 2 3\n", "end of the line"},
      {"m abc\n", "float value"},
      {"m 1 12.5\n", "integer timestamp"},
      {"{a=\"b\"} 1\n", "metric name"},
      {"m{1a=\"b\"} 1\n", "label name"},
      {"m{a=b} 1\n", "opening"},
      {"m\n", "whitespace before the value"},
  };
  for (const auto& c : cases) {
    auto r = parse_prometheus_text(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
    EXPECT_NE(r.status().message().find(c.needle), std::string::npos) << r.status().message();
  }
}

TEST(PrometheusText, ExactUnsignedIntegers) {
  EXPECT_EQ(parse_exact_u64("0"), 0u);
  EXPECT_EQ(parse_exact_u64("18446744073709551615"), 18446744073709551615ull);
  for (const char* bad : {"", "-1", "+1", "1.0", "1e3", "NaN", "18446744073709551616", " 1"}) {
    EXPECT_FALSE(parse_exact_u64(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace moonquota::reconcile

namespace moonquota::reconcile {
namespace {

// What our writers (the prom report, the master stand-in) escape, our parser reads back exactly.
TEST(PrometheusText, EscapedLabelValuesRoundTrip) {
  for (const std::string& raw : {std::string("plain"), std::string("Team \"Q\" \\ x"), std::string("two\nlines"),
                                 std::string("\xC3\xA9quipe"), std::string("\\n literal"), std::string()}) {
    const std::string line = "m{tenant_id=\"" + escape_label_value(raw) + "\"} 1\n";
    auto r = parse_prometheus_text(line);
    ASSERT_TRUE(r.ok()) << r.status().message() << " for " << line;
    ASSERT_EQ(r->samples.size(), 1u);
    ASSERT_NE(r->samples[0].label("tenant_id"), nullptr);
    EXPECT_EQ(*r->samples[0].label("tenant_id"), raw);
  }
  EXPECT_EQ(escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

}  // namespace
}  // namespace moonquota::reconcile
