// Resolves a store location (a --store, --snapshot-dir or --out: a local path or an "s3://" URL)
// into the one store a run reads or writes: the S3 backend for "s3://" URLs, reached with the
// given settings, the local files otherwise. A tool calls it once, after parsing its flags, and
// hands the store down to every reader.
#pragma once

#include <memory>
#include <string>

#include "source/s3_config.hpp"
#include "source/writable_object_store.hpp"
#include "util/net_config.hpp"

namespace moonquota::source {

[[nodiscard]] std::unique_ptr<WritableObjectStore> open_writable_object_store(const std::string& location,
                                                                              const S3Config& s3,
                                                                              const util::NetConfig& net);

[[nodiscard]] std::unique_ptr<ObjectStore> open_object_store(const std::string& location, const S3Config& s3,
                                                             const util::NetConfig& net);

}  // namespace moonquota::source
