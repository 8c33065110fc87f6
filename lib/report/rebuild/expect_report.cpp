#include "report/rebuild/expect_report.hpp"

#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

// A compared value as its table holds it: a boolean or an unsigned integer.
ordered_json value_json(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  return std::stoull(text);
}

ordered_json id_json(const std::string& id) {
  return util::is_valid_utf8(id) ? ordered_json(id) : ordered_json(util::printable(id));
}

}  // namespace

ordered_json expect_json(const quota::TableComparison& c, const std::string& file) {
  ordered_json differences = ordered_json::array();
  for (const auto& d : c.differences) {
    differences.push_back({{"tenant_id", id_json(d.tenant_id)},
                           {"field", d.field},
                           {"expected", value_json(d.expected)},
                           {"rebuilt", value_json(d.rebuilt)}});
  }
  ordered_json missing_in_rebuilt = ordered_json::array();
  for (const auto& id : c.missing_in_rebuilt) missing_in_rebuilt.push_back(id_json(id));
  ordered_json missing_in_expected = ordered_json::array();
  for (const auto& id : c.missing_in_expected) missing_in_expected.push_back(id_json(id));
  return {{"file", file},
          {"form", quota::expected_form_name(c.form)},
          {"compared", c.compared},
          {"matches", c.matches()},
          {"differences", differences},
          {"missing_in_rebuilt", missing_in_rebuilt},
          {"missing_in_expected", missing_in_expected}};
}

void render_expect_text(const quota::TableComparison& c, const std::string& file, std::ostream& out) {
  out << "\nexpect:    " << util::printable(file) << " (" << quota::expected_form_name(c.form) << "): " << c.compared
      << " tenant" << (c.compared == 1 ? "" : "s") << " compared: ";
  if (c.matches()) {
    out << "matches\n";
    return;
  }
  out << c.differences.size() << (c.differences.size() == 1 ? " field differs, " : " fields differ, ")
      << c.missing_in_rebuilt.size() << " expected tenant" << (c.missing_in_rebuilt.size() == 1 ? "" : "s")
      << " not rebuilt, " << c.missing_in_expected.size() << " rebuilt tenant"
      << (c.missing_in_expected.size() == 1 ? "" : "s") << " not expected\n";
  for (const auto& d : c.differences) {
    out << "  differs:  '" << util::printable(d.tenant_id) << "' " << d.field << ": expected " << d.expected
        << ", rebuilt " << d.rebuilt << "\n";
  }
  for (const auto& id : c.missing_in_rebuilt) {
    out << "  missing:  '" << util::printable(id) << "' is expected but not in the rebuilt table\n";
  }
  for (const auto& id : c.missing_in_expected) {
    out << "  extra:    '" << util::printable(id) << "' is rebuilt"
        << (c.form == quota::ExpectedForm::rebuild_json ? "" : " (and a master lists it)") << " but not expected\n";
  }
}

}  // namespace moonquota::report
