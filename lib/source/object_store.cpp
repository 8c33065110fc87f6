#include "source/object_store.hpp"

#include <memory>
#include <mutex>

#include "source/local_object_store.hpp"
#include "source/s3_object_store.hpp"
#include "source/s3_url.hpp"

namespace moonquota::source {

namespace {

struct S3Backend {
  std::mutex mutex;
  std::unique_ptr<S3ObjectStore> store;
  S3Config config;
  bool configured = false;
};

S3Backend& s3_backend() {
  static S3Backend backend;
  return backend;
}

// The environment's settings; one that does not parse gives the defaults (the tools configure
// explicitly and report such errors).
S3Config environment_settings() {
  auto config = s3_config_from_environment(process_environment());
  return config.ok() ? *config : S3Config{};
}

}  // namespace

std::string join_key(const std::string& prefix, const std::string& name) {
  if (prefix.empty()) return name;
  if (prefix.back() == '/') return prefix + name;
  return prefix + "/" + name;
}

util::Result<bool> prefix_exists(const std::string& prefix) {
  auto keys = object_store_for(prefix).list(prefix);
  if (keys.ok()) return true;
  if (keys.status().code() == util::StatusCode::not_found) return false;
  return keys.status();
}

void configure_s3(S3Config config, util::NetConfig net) {
  S3Backend& backend = s3_backend();
  std::lock_guard lock(backend.mutex);
  backend.store = std::make_unique<S3ObjectStore>(config, std::move(net));
  backend.config = std::move(config);
  backend.configured = true;
}

const S3Config& s3_settings() {
  S3Backend& backend = s3_backend();
  std::lock_guard lock(backend.mutex);
  if (!backend.configured) {
    backend.config = environment_settings();
    backend.configured = true;
  }
  return backend.config;
}

ObjectStore& object_store_for(const std::string& location) {
  if (is_s3_url(location)) {
    S3Backend& backend = s3_backend();
    std::lock_guard lock(backend.mutex);
    if (!backend.store) {
      if (!backend.configured) backend.config = environment_settings();
      backend.configured = true;
      backend.store = std::make_unique<S3ObjectStore>(backend.config, util::NetConfig{});
    }
    return *backend.store;
  }
  static LocalObjectStore local;
  return local;
}

}  // namespace moonquota::source
