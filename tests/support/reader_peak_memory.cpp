// Test support (issue 11 item 26): reads one file with one reader of live responses or policies,
// so a test can measure the reader's peak memory from outside (wait4's ru_maxrss):
//
//   reader-peak-memory metrics|tenant-list|policy FILE
//
// Prints "ok N" (tenants read) or "refused: <message>", then "peak_kib N" (VmHWM of this process,
// from /proc/self/status: unlike wait4's ru_maxrss it does not count the parent's pages that a
// fork shares before exec), and exits 0; exit 2 for bad usage or an unreadable file. The file is
// read whole first, as the tools hold a live response.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "format/policy_yaml.hpp"
#include "reconcile/tenant_list.hpp"
#include "reconcile/tenant_metrics.hpp"

namespace {

long peak_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

template <typename T, typename Count>
int report(const moonquota::util::Result<T>& r, Count count) {
  if (r.ok()) {
    std::cout << "ok " << count(*r) << "\n";
  } else {
    std::cout << "refused: " << r.status().message().substr(0, 300) << "\n";
  }
  std::cout << "peak_kib " << peak_kib() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: reader-peak-memory metrics|tenant-list|policy FILE\n";
    return 2;
  }
  const std::string reader = argv[1];
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::cerr << "reader-peak-memory: cannot open " << argv[2] << "\n";
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  using namespace moonquota;
  if (reader == "metrics") {
    return report(reconcile::parse_tenant_metrics(text),
                  [](const auto& m) { return m.tenants.size() + m.incomplete.size(); });
  }
  if (reader == "tenant-list") {
    return report(reconcile::parse_tenant_list_response(200, text), [](const auto& rows) { return rows.size(); });
  }
  if (reader == "policy") {
    return report(format::parse_policy_yaml(text, argv[2]), [](const auto& p) { return p.quotas.size(); });
  }
  std::cerr << "reader-peak-memory: unknown reader '" << reader << "'\n";
  return 2;
}
