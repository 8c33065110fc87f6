#include "util/status.hpp"

namespace moonquota::util {

const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid argument";
    case StatusCode::corruption: return "corruption";
    case StatusCode::not_found: return "not found";
    case StatusCode::io_error: return "I/O error";
    case StatusCode::unsupported: return "unsupported";
    case StatusCode::unavailable: return "unavailable";
    case StatusCode::refused: return "refused";
    case StatusCode::limit_exceeded: return "limit exceeded";
    case StatusCode::internal: return "internal error";
  }
  return "unknown";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return std::string(status_code_name(m_code)) + ": " + m_message;
}

Status Status::with_context(const std::string& context) const {
  if (ok()) return *this;
  return Status(m_code, context + ": " + m_message);
}

}  // namespace moonquota::util
