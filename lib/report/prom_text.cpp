#include "report/prom_text.hpp"

namespace moonquota::report {

void gauge_family(std::ostream& out, std::string_view prefix, std::string_view name, std::string_view help) {
  out << "# HELP " << prefix << name << " " << help << "\n# TYPE " << prefix << name << " gauge\n";
}

}  // namespace moonquota::report
