// Bad live input never crashes: byte flips, insertions, deletions and truncations of the genuine
// captures (the real master's list body and /metrics text) must each give either a result or a
// clean error of the documented kind, with a message that names where it went wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "reconcile/prometheus_text.hpp"
#include "reconcile/tenant_list.hpp"
#include "reconcile/tenant_metrics.hpp"
#include "support/run_tool.hpp"

namespace moonquota::reconcile {
namespace {

std::string genuine(const std::string& name) {
  std::ifstream in(test::source_path("snapshots/genuine-live/r1_quiescent_orphan/" + name), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One random mutation of `text`: flip a byte, insert one, delete one, or truncate.
std::string mutate(const std::string& text, std::mt19937& rng) {
  std::string out = text;
  const std::size_t pos = rng() % out.size();
  const auto byte = static_cast<char>(rng() % 256);
  switch (rng() % 4) {
    case 0: out[pos] = byte; break;
    case 1: out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos), byte); break;
    case 2: out.erase(pos, 1); break;
    default: out.resize(pos); break;
  }
  return out;
}

TEST(LiveMutation, ListBodiesGiveRowsOrANamedError) {
  const std::string body = genuine("api_list.json");
  ASSERT_FALSE(body.empty());
  std::mt19937 rng(4242);
  int errors = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string bad = mutate(body, rng);
    auto rows = parse_tenant_list_response(200, bad);
    if (rows.ok()) {
      for (const auto& t : *rows) EXPECT_LE(t.charged_bytes, (std::uint64_t{1} << 63) - 1);
      continue;
    }
    ++errors;
    const auto code = rows.status().code();
    ASSERT_TRUE(code == util::StatusCode::corruption || code == util::StatusCode::unsupported ||
                code == util::StatusCode::unavailable)
        << rows.status().message();
    const std::string& m = rows.status().message();
    EXPECT_TRUE(m.find("byte offset") != std::string::npos || m.find("usable JSON") != std::string::npos ||
                m.find("data[") != std::string::npos || m.find("member") != std::string::npos ||
                m.find("data is not") != std::string::npos || m.find("error_code") != std::string::npos ||
                m.find("not a JSON object") != std::string::npos || m.find("multi-tenancy") != std::string::npos ||
                m.find("503") != std::string::npos)
        << m;
  }
  EXPECT_GT(errors, 1000);
}

TEST(LiveMutation, MetricsTextGivesABlockOrAnErrorNamingTheLine) {
  const std::string text = genuine("metrics.txt");
  ASSERT_FALSE(text.empty());
  std::mt19937 rng(2424);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string bad = mutate(text, rng);
    auto metrics = parse_tenant_metrics(bad);
    if (metrics.ok()) {
      for (const auto& t : metrics->tenants) EXPECT_LE(t.charged_bytes, (std::uint64_t{1} << 63) - 1);
      continue;
    }
    ++errors;
    ASSERT_EQ(metrics.status().code(), util::StatusCode::corruption) << metrics.status().message();
    const std::string& m = metrics.status().message();
    EXPECT_TRUE(m.find("line") != std::string::npos || m.find("tenant '") != std::string::npos) << m;
  }
  EXPECT_GT(errors, 100);
}

}  // namespace
}  // namespace moonquota::reconcile
