#include "app/exit_codes.hpp"

namespace moonquota::app {

int exit_code_for(const util::Status& status) {
  switch (status.code()) {
    case util::StatusCode::ok: return k_exit_ok;
    case util::StatusCode::invalid_argument: return k_exit_usage;
    case util::StatusCode::corruption:
    case util::StatusCode::not_found:
    case util::StatusCode::io_error:
    case util::StatusCode::unsupported:
    case util::StatusCode::refused:
    case util::StatusCode::limit_exceeded: return k_exit_bad_input;
    case util::StatusCode::unavailable: return k_exit_service;
    case util::StatusCode::internal: return k_exit_internal;
  }
  return k_exit_internal;
}

}  // namespace moonquota::app
