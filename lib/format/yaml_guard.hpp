// yaml-cpp behind our limits, for the readers of operator YAML (policy_yaml, allowed_changes_yaml):
// the nodes of the first document counted before it is built (yaml-cpp's nodes cost hundreds of
// bytes each, so the count, not the byte size, bounds memory), nesting past yaml-cpp's depth
// guard named, and every yaml-cpp exception turned into a Status. Only format's YAML readers
// include this header (it names yaml-cpp types).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::format {

struct YamlGuard {
  std::string what;           // how messages name the input: "tenant quota policy 'p.yaml'"
  std::size_t max_nodes = 0;  // more nodes: unsupported, naming the line
  std::string nodes_hint;     // after the limit: "(a real policy has a few per tenant)"
  std::string depth_hint;     // after the depth: "(a policy nests 3)"
};

// The first document of `text`. Errors: unsupported (more than max_nodes nodes), refused (invalid
// YAML, naming line and column; nesting deeper than the reader's guard).
[[nodiscard]] util::Result<YAML::Node> load_yaml_guarded(std::string_view text, const YamlGuard& guard);

// 1-based line of a node, or 0 when yaml-cpp has no position for it.
[[nodiscard]] int yaml_line_of(const YAML::Node& node);

}  // namespace moonquota::format
