#include "reconcile/tenant_list.hpp"

#include <gtest/gtest.h>

#include "support/run_tool.hpp"

namespace moonquota::reconcile {
namespace {

std::string row(const std::string& charged) {
  return R"({"success":true,"data":[{"tenant_id":"a","requested_quota_bytes":1,"effective_quota_bytes":1,"charged_bytes":)" +
         charged + R"(,"admission_closed":false,"over_quota":false,"has_explicit_policy":true}]})";
}

TEST(TenantList, GenuineListUnescapesIdsAndKeepsExactNumbers) {
  auto rows = parse_tenant_list_response(
      200, test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/api_list.json"));
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 6u);
  EXPECT_EQ((*rows)[0].tenant_id, "Team \"Q\" \\ x");
  EXPECT_EQ((*rows)[5].tenant_id, "\xC3\xA9quipe");
  EXPECT_EQ((*rows)[1].charged_bytes, 840257u);
  EXPECT_EQ((*rows)[2].effective_quota_bytes, 4493897u);
  EXPECT_TRUE((*rows)[4].admission_closed);
}

TEST(TenantList, StatusFirstThenErrorCode) {
  auto standby = parse_tenant_list_response(
      503, test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/pre_activation/api_list.json"));
  ASSERT_FALSE(standby.ok());
  EXPECT_EQ(standby.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(standby.status().message().find("service plane is not active"), std::string::npos);
  auto off = parse_tenant_list_response(
      409, R"({"success":false,"error_code":-1011,"error_message":"UNAVAILABLE_IN_CURRENT_MODE"})");
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.status().code(), util::StatusCode::unsupported);
  EXPECT_NE(off.status().message().find("multi-tenancy disabled"), std::string::npos);
  // Issue 11 item 11: any 5xx is retried (unavailable), led by its status.
  auto other = parse_tenant_list_response(500, R"({"success":false,"error_code":-1,"error_message":"INTERNAL_ERROR"})");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(other.status().message().find("HTTP 500 Internal Server Error"), std::string::npos);
  auto not_found = parse_tenant_list_response(404, R"({"success":false,"error_code":-704,"error_message":"x"})");
  ASSERT_FALSE(not_found.ok());
  EXPECT_EQ(not_found.status().code(), util::StatusCode::corruption);
  EXPECT_NE(not_found.status().message().find("(HTTP 404 Not Found): error_code -704"), std::string::npos)
      << not_found.status().message();
}

// Issue 11 item 11: an HTML error page is described by its status and title, never as bad JSON.
TEST(TenantList, AnHtmlErrorPageLeadsWithTheStatusNotAJsonOffset) {
  const std::string page =
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>" + std::string(5000, 'x') + "</body></html>";
  auto proxy = parse_tenant_list_response(502, page);
  ASSERT_FALSE(proxy.ok());
  EXPECT_EQ(proxy.status().code(), util::StatusCode::unavailable);
  EXPECT_EQ(proxy.status().message(), "the master answered HTTP 502 Bad Gateway (" + std::to_string(page.size()) +
                                          " bytes: \"502 Bad Gateway\")");
  auto missing = parse_tenant_list_response(404, "<html><body>" + std::string(5000, 'y') + "</body></html>");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), util::StatusCode::corruption);
  EXPECT_EQ(missing.status().message().find("the master answered HTTP 404 Not Found"), 0u)
      << missing.status().message();
  EXPECT_EQ(missing.status().message().find("JSON"), std::string::npos) << missing.status().message();
  EXPECT_LT(missing.status().message().size(), 150u) << missing.status().message();
}

TEST(TenantList, SavedErrorBodiesWithoutStatus) {
  auto standby = parse_tenant_list_response(
      std::nullopt, R"({"success":false,"error_code":-1011,"error_message":"service plane is not active"})");
  ASSERT_FALSE(standby.ok());
  EXPECT_EQ(standby.status().code(), util::StatusCode::unavailable);
  auto off = parse_tenant_list_response(
      std::nullopt, R"({"success":false,"error_code":-1011,"error_message":"UNAVAILABLE_IN_CURRENT_MODE"})");
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.status().code(), util::StatusCode::unsupported);
}

TEST(TenantList, ExactLimitsAndEmptyList) {
  auto max = parse_tenant_list_response(200, row("9223372036854775807"));
  ASSERT_TRUE(max.ok());
  EXPECT_EQ((*max)[0].charged_bytes, 9223372036854775807u);
  auto empty = parse_tenant_list_response(200, R"({"success":true,"data":[]})");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(TenantList, MoreRowsThanMaxTenantsAreRefusedNamingTheRow) {
  // Regression (fuzz finding F4): memory grew with the rows of any list under the response cap.
  auto genuine = test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/api_list.json");
  ASSERT_TRUE(parse_tenant_list_response(200, genuine, 6).ok());  // exactly the limit
  auto refused = parse_tenant_list_response(200, genuine, 5);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), util::StatusCode::limit_exceeded);
  EXPECT_NE(refused.status().message().find("more than 5 tenants (data[5] is one too many; --max-tenants"),
            std::string::npos)
      << refused.status().message();
  // The default admits k_default_max_tenants rows and refuses one more.
  std::string body = R"({"success":true,"data":[)";
  for (std::size_t i = 0; i <= k_default_max_tenants; ++i) {
    if (i > 0) body += ',';
    body += R"({"tenant_id":"t)" + std::to_string(i) +
            R"(","requested_quota_bytes":1,"effective_quota_bytes":1,"charged_bytes":0,"admission_closed":false,)"
            R"("over_quota":false,"has_explicit_policy":true})";
  }
  body += "]}";
  auto over = parse_tenant_list_response(200, body);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("data[100000]"), std::string::npos) << over.status().message();
  EXPECT_EQ(parse_tenant_list_response(200, body, k_default_max_tenants + 1)->size(), k_default_max_tenants + 1);
}

TEST(TenantList, MalformedRowsNameTheMember) {
  struct Case {
    std::string body;
    const char* needle;
  } cases[] = {
      {row("-5"), "data[0].charged_bytes is negative"},
      {row("1.5"), "data[0].charged_bytes is not an unsigned integer"},
      {row("1e3"), "data[0].charged_bytes is not an unsigned integer"},
      {row("18446744073709551616"), "charged_bytes is not an unsigned integer"},
      {row("9223372036854775808"), "exceeds 2^63-1"},
      {row("\"5\""), "not an unsigned integer"},
      {R"({"success":true,"data":[{"tenant_id":"a"}]})", "data[0].requested_quota_bytes is missing"},
      {R"({"success":true,"data":[{"tenant_id":1}]})", "tenant_id is not a string"},
      {R"({"success":true,"data":{}})", "data is not an array"},
      {R"({"success":true,"data":[)", "not valid JSON"},
      {R"([1])", "not a JSON object"},
  };
  for (const auto& c : cases) {
    auto r = parse_tenant_list_response(200, c.body);
    ASSERT_FALSE(r.ok()) << c.body;
    EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
    EXPECT_NE(r.status().message().find(c.needle), std::string::npos) << r.status().message();
  }
}

// Issue 11 item 24: a member of the wrong type holding hostile input (an array nested ~65,000
// deep made the message dump() it recursively and crash) gives a short corruption message.
std::string repeated(const std::string& s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(TenantList, HostileWrongTypedMembersGiveShortMessages) {
  const std::string head =
      R"({"success":true,"data":[{"tenant_id":"a","requested_quota_bytes":1,"effective_quota_bytes":1,"charged_bytes":1,"admission_closed":)";
  const std::string tail = R"(,"over_quota":false,"has_explicit_policy":true}]})";
  struct Case {
    std::string member;
    const char* needle;
  } cases[] = {
      {std::string(65000, '[') + std::string(65000, ']'), "body nests arrays/objects deeper than 64 levels"},
      {std::string(60, '[') + std::string(60, ']'),
       "data[0].admission_closed is not a boolean: an array of 1 elements"},
      {"[1" + repeated(",1", 50000) + "]", "data[0].admission_closed is not a boolean: an array of 50001 elements"},
      {std::string(100000, '1'), "body is not usable JSON ([json.exception.out_of_range.406] number overflow"},
      {"{\"x\":[" + std::string(50, '[') + std::string(50, ']') + "]}",
       "data[0].admission_closed is not a boolean: an object of 1 members"},
      {"\"" + std::string(100000, 'x') + "\"",
       "is not a boolean: a string \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"..."},
      {"1", "is not a boolean: number 1"},
  };
  for (const auto& c : cases) {
    auto r = parse_tenant_list_response(200, head + c.member + tail);
    ASSERT_FALSE(r.ok()) << c.needle;
    EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
    EXPECT_NE(r.status().message().find(c.needle), std::string::npos) << r.status().message();
    EXPECT_LT(r.status().message().size(), 200u) << r.status().message().substr(0, 300);
  }
  // Deep nesting is rejected before parsing wherever it is, brackets inside strings do not count.
  auto deep = parse_tenant_list_response(std::nullopt, std::string(100000, '{'));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("deeper than 64 levels (at byte offset 64;"), std::string::npos)
      << deep.status().message();
  auto quoted = parse_tenant_list_response(200, head + "\"" + std::string(1000, '[') + "\\\"[\"" + tail);
  ASSERT_FALSE(quoted.ok());
  EXPECT_NE(quoted.status().message().find("is not a boolean: a string"), std::string::npos)
      << quoted.status().message();
  // A long error_message from the master is cut too.
  auto error = parse_tenant_list_response(
      500, R"({"success":false,"error_code":-1,"error_message":")" + std::string(100000, 'm') + "\"}");
  ASSERT_FALSE(error.ok());
  EXPECT_LT(error.status().message().size(), 200u);
}

}  // namespace
}  // namespace moonquota::reconcile
