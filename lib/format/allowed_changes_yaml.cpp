#include "format/allowed_changes_yaml.hpp"

#include <fmt/format.h>

#include <array>

#include "format/yaml_guard.hpp"

namespace moonquota::format {

namespace {

using util::Status;

constexpr std::array<std::string_view, 7> k_fields = {"charged_bytes",
                                                      "requested_quota_bytes",
                                                      "effective_quota_bytes",
                                                      "admission_closed",
                                                      "over_quota",
                                                      "has_explicit_policy",
                                                      "tenant"};

util::Result<AllowedChange> read_entry(const YAML::Node& entry, std::size_t index, const std::string& name) {
  const std::string where = fmt::format("{} line {}: changes[{}]", name, yaml_line_of(entry), index);
  if (!entry.IsMap()) return Status::refused(where + " is not a map");
  AllowedChange change;
  change.line = yaml_line_of(entry);
  const std::array<std::pair<const char*, std::string*>, 6> members = {{{"fixture", &change.fixture},
                                                                        {"tenant", &change.tenant},
                                                                        {"field", &change.field},
                                                                        {"old", &change.old_value},
                                                                        {"new", &change.new_value},
                                                                        {"reason", &change.reason}}};
  for (const auto& [key, target] : members) {
    const YAML::Node value = entry[key];
    if (!value.IsDefined() || value.IsNull()) return Status::refused(where + ": no \"" + key + "\"");
    if (!value.IsScalar()) return Status::refused(where + ": \"" + key + "\" is not a single value");
    *target = value.Scalar();
  }
  for (const auto& item : entry) {
    const std::string key = item.first.IsScalar() ? item.first.Scalar() : std::string("?");
    bool known = false;
    for (const auto& [member, target] : members) known = known || key == member;
    if (!known) return Status::refused(where + ": unknown member \"" + key + "\"");
  }
  if (!is_allowed_change_field(change.field)) {
    return Status::refused(where + ": field \"" + change.field +
                           "\" is not one of charged_bytes, requested_quota_bytes, effective_quota_bytes, "
                           "admission_closed, over_quota, has_explicit_policy, tenant");
  }
  if (change.reason.empty()) return Status::refused(where + ": the reason is empty (say why the change is intended)");
  return change;
}

}  // namespace

bool is_allowed_change_field(std::string_view field) {
  for (auto f : k_fields) {
    if (f == field) return true;
  }
  return false;
}

util::Result<std::vector<AllowedChange>> parse_allowed_changes_yaml(std::string_view text,
                                                                    const std::string& source_name) {
  if (text.size() > k_max_allowed_changes_bytes) {
    return Status::unsupported(fmt::format("{}: {} bytes, above our {} MiB limit", source_name, text.size(),
                                           k_max_allowed_changes_bytes >> 20));
  }
  YamlGuard guard;
  guard.what = source_name;
  guard.max_nodes = k_max_allowed_changes_nodes;
  guard.nodes_hint = "(an entry has seven)";
  guard.depth_hint = "(the file nests 3)";
  MQ_ASSIGN_OR_RETURN(const YAML::Node root, load_yaml_guarded(text, guard));
  std::vector<AllowedChange> changes;
  try {
    if (root.IsNull()) return changes;  // an empty file allows nothing
    if (!root.IsMap()) return Status::refused(source_name + ": the top level is not a map with a \"changes\" list");
    const YAML::Node list = root["changes"];
    if (!list.IsDefined() || list.IsNull()) return changes;
    if (!list.IsSequence()) {
      return Status::refused(fmt::format("{} line {}: \"changes\" is not a list", source_name, yaml_line_of(list)));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      MQ_ASSIGN_OR_RETURN(AllowedChange change, read_entry(list[i], i, source_name));
      changes.push_back(std::move(change));
    }
  } catch (const YAML::Exception& error) {
    return Status::refused(fmt::format("{}: invalid YAML: {}", source_name, error.msg));
  }
  return changes;
}

}  // namespace moonquota::format
