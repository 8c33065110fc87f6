#include "model/enums.hpp"

namespace moonquota::model {

const char* replica_type::name(std::int8_t t) {
  switch (t) {
    case memory: return "MEMORY";
    case disk: return "DISK";
    case local_disk: return "LOCAL_DISK";
    case nof_ssd: return "NOF_SSD";
    case dfs: return "DFS";
    default: return "UNKNOWN";
  }
}

const char* replica_status::name(std::int16_t s) {
  switch (s) {
    case undefined: return "UNDEFINED";
    case initialized: return "INITIALIZED";
    case processing: return "PROCESSING";
    case complete: return "COMPLETE";
    case removed: return "REMOVED";
    case failed: return "FAILED";
    default: return "OUT_OF_RANGE";
  }
}

const char* segment_status::name(std::int16_t s) {
  switch (s) {
    case undefined: return "UNDEFINED";
    case ok: return "OK";
    case draining: return "DRAINING";
    case drained: return "DRAINED";
    case gracefully_unmounting: return "GRACEFULLY_UNMOUNTING";
    case unmounting: return "UNMOUNTING";
    default: return "OUT_OF_RANGE";
  }
}

}  // namespace moonquota::model
