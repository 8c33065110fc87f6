// Tenant quota policy YAML (quota-semantics.md §9.4, §9.5): the text a master's file or etcd
// connector loads at start-up. Grammar we accept:
//
//   root     := map { version: 1, tenants: [ tenant* ] }     other root keys: ignored + warning
//   tenant   := map { name: <scalar>, quota: <scalar> }      other keys: ignored + warning
//   quota    := DIGIT+ ( "" | "B" | "KB" | "MB" | "GB" | "TB" )   case-sensitive, no space
//
// Any violation means the master would refuse to start, so every parse error is returned as
// StatusCode::refused with a message naming the source, the 1-based line and the tenant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace moonquota::format {

// Inputs larger than this are refused before parsing: a real policy is a few KiB, and yaml-cpp's
// nodes take ~200x the text (a 4 MB policy peaked at 943 MB; the old 64 MiB limit allowed ~15 GB).
inline constexpr std::size_t k_max_policy_bytes = std::size_t{1} * 1024 * 1024;
// Documents with more nodes than this are refused before yaml-cpp builds them: a node costs ~500
// bytes, so 1 MiB of one-letter flow items would still take ~250 MB (issue 11 item 26). A tenant
// takes 5 nodes (its map, two keys, two values): this allows ~10,000 tenants in ~25 MB.
inline constexpr std::size_t k_max_policy_nodes = 50'000;

// A parsed policy: tenant id -> requested quota in bytes, each in [1, 2^63-1], keyed bytewise.
// `warnings` lists accepted oddities (unusual version spelling, ignored keys), each with its line.
struct TenantQuotaPolicy {
  std::map<std::string, std::uint64_t> quotas;
  std::vector<std::string> warnings;
};

// ParseTenantQuotaBytes: DIGIT+ followed by an optional unit (B=1, KB=2^10, MB=2^20, GB=2^30,
// TB=2^40). Leading zeros are allowed. The number must be positive and fit uint64, and the
// product must fit uint64 and be <= 2^63-1. Returns invalid_argument with the reason otherwise
// (the message quotes the offending suffix, not the whole input: callers add context).
[[nodiscard]] util::Result<std::uint64_t> parse_quota_bytes(std::string_view text);

// Parses policy YAML text. `source_name` (a path, or "etcd key ...") prefixes every message.
// Errors: refused (bad YAML, schema violation, invalid/duplicate name, bad quota); unsupported
// for an input of more than k_max_policy_bytes bytes or k_max_policy_nodes nodes. Only the first
// YAML document is read, as yaml-cpp's Load does.
[[nodiscard]] util::Result<TenantQuotaPolicy> parse_policy_yaml(std::string_view text, const std::string& source_name);

// The file connector's Load: reads `path` whole and parses it. A file that cannot be opened is
// refused with "failed to open tenant quota policy file '<path>'" (the master's words); a file
// larger than k_max_policy_bytes is refused without being read in full.
[[nodiscard]] util::Result<TenantQuotaPolicy> load_policy_file(const std::string& path);

// FormatTenantQuotaPolicyYaml: "version: 1", a blank line, then "tenants: []" or one
// `  - name: "<escaped>"` / `    quota: <bytes>` pair per tenant in bytewise order. Ends with
// a newline. Parsing the output yields `quotas` again when every name is valid.
[[nodiscard]] std::string format_policy_yaml(const std::map<std::string, std::uint64_t>& quotas);

// The double-quoted form used by format_policy_yaml: `"` and `\` escaped, control bytes as
// \0 \a \b \t \n \v \f \r or \xNN, other bytes (including >= 0x80) unchanged. Also used to
// show tenant names in messages.
[[nodiscard]] std::string quote_policy_name(std::string_view name);

}  // namespace moonquota::format
