#include "source/object_store.hpp"

#include "source/local_object_store.hpp"

namespace moonquota::source {

std::string join_key(const std::string& prefix, const std::string& name) {
  if (prefix.empty()) return name;
  if (prefix.back() == '/') return prefix + name;
  return prefix + "/" + name;
}

bool prefix_exists(const std::string& prefix) { return object_store_for(prefix).list(prefix).ok(); }

ObjectStore& object_store_for(const std::string& /*location*/) {
  static LocalObjectStore local;
  return local;
}

}  // namespace moonquota::source
