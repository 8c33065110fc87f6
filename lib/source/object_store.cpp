#include "source/object_store.hpp"

namespace moonquota::source {

std::string join_key(const std::string& prefix, const std::string& name) {
  if (prefix.empty()) return name;
  if (prefix.back() == '/') return prefix + name;
  return prefix + "/" + name;
}

util::Result<bool> prefix_exists(ObjectStore& store, const std::string& prefix) {
  auto keys = store.list(prefix);
  if (keys.ok()) return true;
  if (keys.status().code() == util::StatusCode::not_found) return false;
  return keys.status();
}

}  // namespace moonquota::source
