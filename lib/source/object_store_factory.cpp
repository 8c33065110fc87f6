#include "source/object_store_factory.hpp"

#include "source/local_object_store.hpp"
#include "source/s3_object_store.hpp"
#include "source/s3_url.hpp"

namespace moonquota::source {

std::unique_ptr<WritableObjectStore> open_writable_object_store(const std::string& location, const S3Config& s3,
                                                                const util::NetConfig& net) {
  if (is_s3_url(location)) return std::make_unique<S3ObjectStore>(s3, net);
  return std::make_unique<LocalObjectStore>();
}

std::unique_ptr<ObjectStore> open_object_store(const std::string& location, const S3Config& s3,
                                               const util::NetConfig& net) {
  return open_writable_object_store(location, s3, net);
}

}  // namespace moonquota::source
