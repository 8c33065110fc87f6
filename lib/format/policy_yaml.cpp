// ParseTenantQuotaPolicyYaml and the file connector's Load (quota-semantics.md §9.2, §9.4).
// yaml-cpp throws; every exception is caught here and turned into a refused Status.
#include "format/policy_yaml.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <string>

#include "format/yaml_guard.hpp"
#include "model/tenant_id.hpp"
#include "util/file_reader.hpp"

namespace moonquota::format {
namespace {

using util::Status;

// A map entry found by key. yaml-cpp places an empty (null) value at the next token, possibly on
// a later line, so messages about a null value use the key's line.
struct Field {
  YAML::Node key;
  YAML::Node value;
  [[nodiscard]] bool found() const { return key.IsDefined(); }
  [[nodiscard]] const YAML::Node& position() const { return value.IsNull() ? key : value; }
};

// The first entry of `map` whose key is the scalar `name` (yaml-cpp's operator[] also takes the
// first); not found when there is none.
Field find_field(const YAML::Node& map, std::string_view name) {
  for (const auto& entry : map) {
    if (entry.first.IsScalar() && entry.first.Scalar() == name) return {entry.first, entry.second};
  }
  return {YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined)};
}

// Why `name` fails TenantId::IsValid, for the message; empty when it is valid.
std::string tenant_id_problem(const std::string& name) {
  if (name.empty()) return "the name is empty (a policy does not map empty names to default)";
  if (name.front() == '_') return "names starting with '_' are reserved";
  for (std::size_t i = 0; i < name.size(); ++i) {
    auto byte = static_cast<unsigned char>(name[i]);
    if (byte < 0x20 || byte == 0x7f) {
      return fmt::format("control byte 0x{:02X} at offset {} (no byte below 0x20, no 0x7F)", byte, i);
    }
  }
  return {};
}

// Walks a loaded document and collects quotas, warnings and the first error.
class PolicyReader {
 public:
  explicit PolicyReader(const std::string& source_name) : m_source_name(source_name) {}

  util::Result<TenantQuotaPolicy> read(const YAML::Node& root) {
    if (!root.IsMap()) { return refuse(root, "the document root must be a map with 'version' and 'tenants'"); }
    warn_about_keys(root, "version", "tenants", "");
    MQ_RETURN_IF_ERROR(read_version(root));

    const Field tenants = find_field(root, "tenants");
    if (!tenants.found()) return refuse(root, "missing 'tenants' (write 'tenants: []' for none)");
    if (!tenants.value.IsSequence()) { return refuse(tenants.position(), "'tenants' must be a sequence"); }
    std::size_t index = 0;
    for (const auto& entry : tenants.value) MQ_RETURN_IF_ERROR(read_tenant(entry, index++));
    return std::move(m_policy);
  }

 private:
  std::string where(int line) const {
    if (line == 0) return fmt::format("tenant quota policy '{}'", m_source_name);
    return fmt::format("tenant quota policy '{}' line {}", m_source_name, line);
  }
  Status refuse(const YAML::Node& node, const std::string& what) const {
    return Status::refused(fmt::format("{}: {}", where(yaml_line_of(node)), what));
  }
  void warn(const YAML::Node& node, const std::string& what) {
    m_policy.warnings.push_back(fmt::format("{}: {}", where(yaml_line_of(node)), what));
  }

  // Warns on every key other than the two known ones, and on repeats (only the first is read).
  void warn_about_keys(const YAML::Node& map, std::string_view known_a, std::string_view known_b,
                       const std::string& prefix) {
    std::set<std::string> seen;
    for (const auto& entry : map) {
      if (!entry.first.IsScalar()) {
        warn(entry.first, prefix + "ignored non-scalar key");
        continue;
      }
      const std::string& key = entry.first.Scalar();
      if (key != known_a && key != known_b) {
        warn(entry.first, fmt::format("{}ignored key {}", prefix, quote_policy_name(key)));
      } else if (!seen.insert(key).second) {
        warn(entry.first, fmt::format("{}repeated key {}: only the first is read", prefix, quote_policy_name(key)));
      }
    }
  }

  Status read_version(const YAML::Node& root) {
    const Field field = find_field(root, "version");
    if (!field.found()) return refuse(root, "missing 'version' (expected 'version: 1')");
    if (!field.value.IsScalar()) return refuse(field.position(), "'version' must be the integer 1");
    const YAML::Node& version = field.value;
    // yaml-cpp's integer conversion decides, as the master also reads the file with yaml-cpp:
    // "01", "0x1", "+1" and a quoted "1" all read as 1 (quota-semantics.md §9.4 leaves it open).
    std::int64_t number = 0;
    if (!YAML::convert<std::int64_t>::decode(version, number)) {
      return refuse(version,
                    fmt::format("'version' {} is not an integer; expected 1", quote_policy_name(version.Scalar())));
    }
    if (number != 1) { return refuse(version, fmt::format("unsupported version {}; expected 1", number)); }
    if (version.Scalar() != "1" || version.Tag() != "?") {
      warn(version,
           fmt::format("'version' spelled {} is read as 1; write a plain 1", quote_policy_name(version.Scalar())));
    }
    return Status::ok_status();
  }

  Status read_tenant(const YAML::Node& entry, std::size_t index) {
    std::string label = fmt::format("tenants entry #{}", index + 1);
    if (!entry.IsMap()) return refuse(entry, label + " must be a map with 'name' and 'quota'");

    const Field name_field = find_field(entry, "name");
    if (!name_field.found()) return refuse(entry, label + " has no 'name'");
    if (!name_field.value.IsScalar()) {
      return refuse(name_field.position(), label + ": 'name' must be a non-null scalar");
    }
    const YAML::Node& name_node = name_field.value;
    const std::string& name = name_node.Scalar();
    std::string tenant = fmt::format("tenant {}", quote_policy_name(name));
    if (!model::is_valid_tenant_id(name)) {
      return refuse(name_node, fmt::format("{}: invalid tenant id: {}", tenant, tenant_id_problem(name)));
    }
    auto [previous, inserted] = m_name_lines.emplace(name, yaml_line_of(name_node));
    if (!inserted) {
      return refuse(name_node,
                    fmt::format("{}: duplicate tenant (first defined at line {})", tenant, previous->second));
    }

    const Field quota_field = find_field(entry, "quota");
    if (!quota_field.found()) return refuse(entry, tenant + ": missing 'quota'");
    if (!quota_field.value.IsScalar()) {
      return refuse(quota_field.position(), tenant + ": 'quota' must be a non-null scalar");
    }
    const YAML::Node& quota_node = quota_field.value;
    auto bytes = parse_quota_bytes(quota_node.Scalar());
    if (!bytes.ok()) {
      return refuse(quota_node, fmt::format("{}: invalid quota {}: {}", tenant, quote_policy_name(quota_node.Scalar()),
                                            bytes.status().message()));
    }
    m_policy.quotas.emplace(name, *bytes);

    warn_about_keys(entry, "name", "quota", tenant + ": ");
    return Status::ok_status();
  }

  const std::string& m_source_name;
  TenantQuotaPolicy m_policy;
  std::map<std::string, int> m_name_lines;  // tenant -> line of its name, for duplicates
};

}  // namespace

util::Result<TenantQuotaPolicy> parse_policy_yaml(std::string_view text, const std::string& source_name) {
  if (text.size() > k_max_policy_bytes) {
    return Status::unsupported(
        fmt::format("tenant quota policy '{}' is {} bytes, above our {} MiB limit ({} bytes; a real "
                    "policy is a few KiB)",
                    source_name, text.size(), k_max_policy_bytes >> 20, k_max_policy_bytes));
  }
  YamlGuard guard;
  guard.what = fmt::format("tenant quota policy '{}'", source_name);
  guard.max_nodes = k_max_policy_nodes;
  guard.nodes_hint = "(a real policy has a few per tenant)";
  guard.depth_hint = "(a policy nests 3)";
  MQ_ASSIGN_OR_RETURN(const YAML::Node root, load_yaml_guarded(text, guard));
  try {
    return PolicyReader(source_name).read(root);
  } catch (const YAML::Exception& error) {
    std::string position;
    if (error.mark.line >= 0) {
      position = fmt::format(" line {} column {}", error.mark.line + 1, error.mark.column + 1);
    }
    return Status::refused(
        fmt::format("tenant quota policy '{}'{}: invalid YAML: {}", source_name, position, error.msg));
  }
}

util::Result<TenantQuotaPolicy> load_policy_file(const std::string& path) {
  // A FIFO nobody writes to reads as empty instead of blocking for ever; a pipe with a writer
  // (`--policy <(etcdctl get ...)`) is read whole as before.
  const int fd = util::open_for_reading(path);
  if (fd < 0) {
    return Status::refused(fmt::format("failed to open tenant quota policy file '{}': {}", path, std::strerror(errno)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};

  // Stop one chunk past the limit, so a huge file (or /dev/zero) is never held in memory.
  std::string text;
  std::array<char, 64 * 1024> chunk{};
  while (text.size() <= k_max_policy_bytes) {
    const ssize_t got = ::read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      // EISDIR for a directory
      return Status::refused(
          fmt::format("failed to read tenant quota policy file '{}': {}", path, std::strerror(errno)));
    }
    if (got == 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(got));
  }
  if (text.size() > k_max_policy_bytes) {
    return Status::unsupported(fmt::format(
        "tenant quota policy file '{}' is larger than our {} MiB limit ({} bytes; a real policy is a few KiB)", path,
        k_max_policy_bytes >> 20, k_max_policy_bytes));
  }
  return parse_policy_yaml(text, path);
}

}  // namespace moonquota::format
