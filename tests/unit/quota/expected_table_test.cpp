// quota-rebuild --expect: the three forms of an expected table parse to the same rows; bad rows
// name their index and member; the comparison names every field that differs and the tenants
// missing on either side, comparing a master's list with the visible rows only.
#include "quota/expected_table.hpp"

#include "reconcile/expected_table_reader.hpp"

#include <gtest/gtest.h>

namespace moonquota::quota {
namespace {

using reconcile::parse_expected_table;

const char* const k_row_a =
    R"({"tenant_id":"a","charged_bytes":10,"requested_quota_bytes":100,"effective_quota_bytes":90,)"
    R"("admission_closed":false,"over_quota":false,"has_explicit_policy":true})";

AccountRow row(const std::string& id, std::uint64_t charged, bool visible) {
  AccountRow r;
  r.tenant_id = id;
  r.charged_bytes = charged;
  r.requested_quota_bytes = 100;
  r.effective_quota_bytes = 90;
  r.admission_closed = false;
  r.has_explicit_policy = true;
  r.visible = visible;
  return r;
}

TEST(ExpectedTable, TheThreeFormsReadTheSameRows) {
  const std::string rebuild = std::string(R"({"schema":"quota-rebuild/1","source":{"x":[1,2]},"tenants":[)") + k_row_a +
                              R"(],"findings":{"errors":0}})";
  const std::string master = std::string(R"({"success":true,"data":[)") + k_row_a + "]}";
  const std::string bare = std::string("[") + k_row_a + "]";
  const std::string short_names =
      R"([{"tenant_id":"a","charged":10,"requested":100,"effective":90,"admission_closed":false,)"
      R"("over_quota":false,"has_explicit_policy":true}])";
  const std::pair<std::string, ExpectedForm> cases[] = {{rebuild, ExpectedForm::rebuild_json},
                                                        {master, ExpectedForm::master_response},
                                                        {bare, ExpectedForm::bare_array},
                                                        {short_names, ExpectedForm::bare_array}};
  for (const auto& [text, form] : cases) {
    auto t = parse_expected_table(text, "e.json");
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_EQ(t->form, form);
    ASSERT_EQ(t->rows.size(), 1u);
    EXPECT_EQ(t->rows[0].tenant_id, "a");
    EXPECT_EQ(t->rows[0].charged_bytes, 10u);
    EXPECT_EQ(t->rows[0].effective_quota_bytes, 90u);
    EXPECT_TRUE(t->rows[0].has_explicit_policy);
  }
}

TEST(ExpectedTable, BadInputNamesTheFileRowAndMember) {
  const std::pair<std::string, std::string> cases[] = {
      {"not json", "e.json: not JSON"},
      {R"({"x":1})", "e.json: neither quota-rebuild JSON, a master's tenant_quotas response nor an array"},
      {R"({"success":false,"data":[]})", "e.json: the master's response says success: false"},
      {R"({"schema":"quota-reconcile/1","tenants":[]})", "e.json: schema is not quota-rebuild/1"},
      {R"([{"tenant_id":"a","charged_bytes":-1}])", "e.json: [0]: charged_bytes is not an unsigned integer"},
      {R"({"success":true,"data":[{"tenant_id":"a"}]})", "e.json: data[0]: no charged_bytes"},
      {std::string("[") + k_row_a + "," + k_row_a + "]", "e.json: [1]: tenant 'a' twice"},
      {R"([{"tenant_id":"a","charged_bytes":1,"requested_quota_bytes":1,"effective_quota_bytes":1,)"
       R"("admission_closed":0,"over_quota":false,"has_explicit_policy":true}])",
       "e.json: [0]: admission_closed is not true or false"},
  };
  for (const auto& [text, message] : cases) {
    auto t = parse_expected_table(text, "e.json");
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().message(), message);
    EXPECT_EQ(t.status().code(), util::StatusCode::corruption);  // bad input: exit 3
  }
}

TEST(ExpectedTable, TheComparisonNamesEveryDifference) {
  AccountTable rebuilt;
  rebuilt.rows = {row("a", 10, true), row("b", 20, true), row("hidden-orphan", 0, false), row("only-rebuilt", 5, true)};
  rebuilt.rows[1].over_quota = true;
  auto expected = parse_expected_table(
      std::string(R"({"success":true,"data":[)") + k_row_a + "," +
          R"({"tenant_id":"b","charged_bytes":21,"requested_quota_bytes":100,"effective_quota_bytes":90,)"
          R"("admission_closed":false,"over_quota":false,"has_explicit_policy":true},)"
          R"({"tenant_id":"only-expected","charged_bytes":1,"requested_quota_bytes":1,"effective_quota_bytes":1,)"
          R"("admission_closed":false,"over_quota":false,"has_explicit_policy":true}]})",
      "m.json");
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  const TableComparison c = compare_with_expected(rebuilt, *expected);
  EXPECT_FALSE(c.matches());
  EXPECT_EQ(c.compared, 2u);
  ASSERT_EQ(c.differences.size(), 2u);
  EXPECT_EQ(c.differences[0].tenant_id, "b");
  EXPECT_EQ(c.differences[0].field, "charged_bytes");
  EXPECT_EQ(c.differences[0].expected, "21");
  EXPECT_EQ(c.differences[0].rebuilt, "20");
  EXPECT_EQ(c.differences[1].field, "over_quota");
  EXPECT_EQ(c.missing_in_rebuilt, std::vector<std::string>{"only-expected"});
  // A master lists visible rows only: the invisible orphan is not "missing" from its list.
  EXPECT_EQ(c.missing_in_expected, std::vector<std::string>{"only-rebuilt"});

  // Our own JSON holds every row: there the invisible orphan counts.
  ExpectedTable own = *expected;
  own.form = ExpectedForm::rebuild_json;
  const TableComparison all = compare_with_expected(rebuilt, own);
  EXPECT_EQ(all.missing_in_expected, (std::vector<std::string>{"hidden-orphan", "only-rebuilt"}));
}

TEST(ExpectedTable, AnEqualTableMatches) {
  AccountTable rebuilt;
  rebuilt.rows = {row("a", 10, true)};
  auto expected = parse_expected_table(std::string("[") + k_row_a + "]", "e.json");
  ASSERT_TRUE(expected.ok());
  EXPECT_TRUE(compare_with_expected(rebuilt, *expected).matches());
}

}  // namespace
}  // namespace moonquota::quota
