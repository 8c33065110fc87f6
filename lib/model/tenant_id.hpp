// Tenant identity rules (quota-semantics.md §8).
#pragma once

#include <string>
#include <string_view>

namespace moonquota::model {

inline constexpr std::string_view k_default_tenant = "default";

// TenantId(raw): the empty string becomes "default"; nothing else changes.
[[nodiscard]] inline std::string normalize_tenant_id(std::string_view raw) {
  return raw.empty() ? std::string(k_default_tenant) : std::string(raw);
}

// TenantId::IsValid: non-empty, first byte not '_', every byte >= 0x20 and != 0x7f.
[[nodiscard]] inline bool is_valid_tenant_id(std::string_view id) {
  if (id.empty() || id.front() == '_') return false;
  for (char c : id) {
    auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) return false;
  }
  return true;
}

}  // namespace moonquota::model
