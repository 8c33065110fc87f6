// The wire enum tables: every named value round trips, unknown values and names are explicit.
#include "model/enums.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace moonquota::model {
namespace {

struct NamedTable {
  const char* enum_name;
  const EnumTable* table;
};

std::vector<NamedTable> all_tables() {
  return {{"replica_type", &replica_type::k_table},   {"replica_status", &replica_status::k_table},
          {"data_type", &data_type::k_table},         {"segment_status", &segment_status::k_table},
          {"task_type", &task_type::k_table},         {"task_status", &task_status::k_table},
          {"oplog_op_type", &oplog_op_type::k_table}, {"oplog_replica_variant", &oplog_replica_variant::k_table}};
}

TEST(EnumTables, EveryValueRoundTripsNameToValueToName) {
  for (const auto& [enum_name, table] : all_tables()) {
    SCOPED_TRACE(enum_name);
    ASSERT_FALSE(table->names().empty());
    std::set<std::int64_t> values;
    std::set<std::string> names;
    for (const EnumName& n : table->names()) {
      EXPECT_TRUE(values.insert(n.value).second) << "value " << n.value << " named twice";
      EXPECT_TRUE(names.insert(n.name).second) << "name " << n.name << " used twice";
      const auto parsed = table->parse(n.name);
      ASSERT_TRUE(parsed.has_value()) << n.name;
      EXPECT_EQ(*parsed, n.value);
      EXPECT_STREQ(table->name(*parsed), n.name);
      EXPECT_EQ(table->name_or_number(*parsed), n.name);
      ASSERT_TRUE(table->find_name(n.value).has_value());
      EXPECT_STREQ(*table->find_name(n.value), n.name);
    }
    EXPECT_EQ(names.count(table->unknown_name()), 0u) << "the stand-in must not be a real name";
  }
}

TEST(EnumTables, UnknownValuesHaveNoNameAndShowTheStandIn) {
  for (const auto& [enum_name, table] : all_tables()) {
    SCOPED_TRACE(enum_name);
    for (std::int64_t v : {std::int64_t{-1}, std::int64_t{-32768}, std::int64_t{101}, std::int64_t{4294967296}}) {
      EXPECT_FALSE(table->find_name(v).has_value()) << v;
      EXPECT_STREQ(table->name(v), table->unknown_name()) << v;
      EXPECT_EQ(table->name_or_number(v), std::to_string(v));
    }
  }
  EXPECT_STREQ(replica_type::name(4), "UNKNOWN");  // ALL: a filter value, never a replica's type
  EXPECT_STREQ(replica_status::name(6), "OUT_OF_RANGE");
  EXPECT_STREQ(replica_status::name(-1), "OUT_OF_RANGE");
  EXPECT_STREQ(segment_status::name(6), "OUT_OF_RANGE");
  EXPECT_STREQ(data_type::k_table.name(10), "RESERVED");
  EXPECT_EQ(task_type::k_table.name_or_number(2), "2");
  EXPECT_EQ(task_status::k_table.name_or_number(-7), "-7");
  EXPECT_STREQ(oplog_op_type::name(0), "INVALID");
  EXPECT_STREQ(oplog_op_type::name(oplog_op_type::max), "INVALID");
  EXPECT_STREQ(oplog_replica_variant::name(5), "INVALID");
}

TEST(EnumTables, UnknownNamesDoNotParse) {
  for (const auto& [enum_name, table] : all_tables()) {
    SCOPED_TRACE(enum_name);
    EXPECT_FALSE(table->parse("").has_value());
    EXPECT_FALSE(table->parse(table->unknown_name()).has_value());
    EXPECT_FALSE(table->parse("NOT_A_NAME").has_value());
    // Names are exact: no case folding, no surrounding space, no numbers.
    const std::string first = table->names().front().name;
    std::string lower = first;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    EXPECT_FALSE(table->parse(lower).has_value()) << lower;
    EXPECT_FALSE(table->parse(" " + first).has_value());
    EXPECT_FALSE(table->parse(std::to_string(table->names().front().value)).has_value());
  }
}

// The values the spec fixes (snapshot-format.md §8, oplog-format.md §7.3 and §8.6).
TEST(EnumTables, ValuesAreTheWireValues) {
  EXPECT_EQ(replica_type::k_table.parse("MEMORY"), 0);
  EXPECT_EQ(replica_type::k_table.parse("DISK"), 1);
  EXPECT_EQ(replica_type::k_table.parse("LOCAL_DISK"), 2);
  EXPECT_EQ(replica_type::k_table.parse("NOF_SSD"), 3);
  EXPECT_EQ(replica_type::k_table.parse("DFS"), 100);
  EXPECT_FALSE(replica_type::k_table.parse("ALL").has_value());
  EXPECT_EQ(replica_status::k_table.parse("COMPLETE"), replica_status::complete);
  EXPECT_EQ(replica_status::k_table.parse("FAILED"), 5);
  EXPECT_EQ(segment_status::k_table.parse("OK"), segment_status::ok);
  EXPECT_EQ(segment_status::k_table.parse("GRACEFULLY_UNMOUNTING"), 4);
  EXPECT_EQ(data_type::k_table.parse("UNKNOWN"), 0);  // a real name here, not a stand-in
  EXPECT_EQ(data_type::k_table.parse("GENERAL"), 9);
  EXPECT_EQ(task_type::k_table.parse("REPLICA_MOVE"), task_type::replica_move);
  EXPECT_EQ(task_status::k_table.parse("SUCCESS"), 3);
  EXPECT_EQ(oplog_op_type::k_table.parse("PUT_END"), 1);
  EXPECT_EQ(oplog_op_type::k_table.parse("SEGMENT_UPDATE"), 7);
  // The OpLog numbers replica kinds by variant index, not by ReplicaType.
  EXPECT_EQ(oplog_replica_variant::k_table.parse("NOF"), 1);
  EXPECT_EQ(oplog_replica_variant::k_table.parse("DISK"), 2);
  EXPECT_EQ(oplog_replica_variant::k_table.parse("DFS"), 4);
}

}  // namespace
}  // namespace moonquota::model
