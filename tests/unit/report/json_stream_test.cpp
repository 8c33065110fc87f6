// A document written with its big array streamed is byte for byte the one dump of the whole tree:
// empty and one-element arrays, nested elements, an array at depth 2, invalid UTF-8 replaced.
#include "report/json_stream.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace moonquota::report {
namespace {

using nlohmann::ordered_json;

std::string whole(const ordered_json& j) {
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string streamed(ordered_json head, const std::vector<ordered_json>& elements, int depth) {
  std::ostringstream out;
  write_json_with_streamed_array(
      out, head, "@@array@@", elements.size(), [&](std::size_t i) { return elements[i]; }, depth);
  return out.str();
}

std::vector<ordered_json> elements_of(std::size_t n) {
  std::vector<ordered_json> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({{"i", i}, {"name", i % 2 ? std::string("bad \xff byte") : "ok"}, {"list", {1, 2, {{"x", i}}}}});
  }
  return out;
}

TEST(JsonStream, EqualsOneDumpOfTheWholeTree) {
  for (std::size_t n : {0, 1, 3}) {
    const auto elements = elements_of(n);
    ordered_json head = {{"schema", "s/1"}, {"items", "@@array@@"}, {"after", {{"k", true}}}};
    ordered_json tree = head;
    tree["items"] = ordered_json::array();
    for (const auto& e : elements) tree["items"].push_back(e);
    EXPECT_EQ(streamed(head, elements, 1), whole(tree)) << n;
  }
}

TEST(JsonStream, AnArrayAtDepthTwo) {
  const auto elements = elements_of(2);
  ordered_json head = {{"outer", {{"before", 1}, {"items", "@@array@@"}}}};
  ordered_json tree = head;
  tree["outer"]["items"] = ordered_json::array();
  for (const auto& e : elements) tree["outer"]["items"].push_back(e);
  EXPECT_EQ(streamed(head, elements, 2), whole(tree));
}

TEST(JsonStream, WithoutThePlaceholderTheDocumentIsWrittenAsItIs) {
  ordered_json head = {{"a", 1}};
  EXPECT_EQ(streamed(head, elements_of(2), 1), whole(head));
}

}  // namespace
}  // namespace moonquota::report
