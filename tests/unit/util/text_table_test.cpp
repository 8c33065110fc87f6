#include "util/text_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace moonquota::util {
namespace {

TEST(TextTable, AlignsColumnsByDisplayWidth) {
  TextTable t;
  t.add_column("NAME", TextTable::Align::left);
  t.add_column("N", TextTable::Align::right);
  t.add_row({"\xc3\xa9quipe", "1"});
  t.add_row({"alpha", "10"});
  std::ostringstream out;
  t.render(out);
  EXPECT_EQ(out.str(),
            "NAME     N\n"
            "------  --\n"
            "\xc3\xa9quipe   1\n"
            "alpha   10\n");
}

}  // namespace
}  // namespace moonquota::util
