#include "restore/standby_store.hpp"

namespace moonquota::restore {

std::string StandbyStore::object_key(std::string_view tenant, std::string_view key) {
  std::string composite;
  composite.reserve(tenant.size() + 1 + key.size());
  composite.append(tenant);
  composite.push_back('\0');
  composite.append(key);
  return composite;
}

std::pair<std::string_view, std::string_view> StandbyStore::split_key(std::string_view composite) {
  const auto nul = composite.find('\0');
  return {composite.substr(0, nul), composite.substr(nul + 1)};
}

void StandbyStore::put(std::string_view tenant, std::string_view key, StandbyObject object) {
  m_objects.insert_or_assign(object_key(tenant, key), std::move(object));
}

bool StandbyStore::insert_new(std::string_view tenant, std::string_view key, StandbyObject object) {
  return m_objects.emplace(object_key(tenant, key), std::move(object)).second;
}

void StandbyStore::erase(std::string_view tenant, std::string_view key) { m_objects.erase(object_key(tenant, key)); }

void StandbyStore::clear() {
  m_objects.clear();
  m_registry.clear();
}

}  // namespace moonquota::restore
