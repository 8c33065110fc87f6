// Status and Result<T>: errors as values. The library never throws across its public boundary
// and never prints; every failure carries a code and a message that names the file, shard,
// entry or byte offset it concerns.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace moonquota::util {

enum class StatusCode {
  ok,
  invalid_argument,  // the caller (user) asked for something impossible: usage-level problem
  corruption,        // input bytes do not follow the format
  not_found,         // a file, key or snapshot that should exist does not
  io_error,          // the operating system refused a read or write
  unsupported,       // valid input we deliberately do not model (e.g. NOF_SSD replicas)
  unavailable,       // a service (master, etcd, Redis) could not be used
  refused,           // the master would refuse to start (policy error, quota overflow)
  limit_exceeded,    // one of our own memory guards was hit: not a master decision
  internal,          // a bug of ours
};

[[nodiscard]] const char* status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : m_code(code), m_message(std::move(message)) {}

  static Status ok_status() { return {}; }
  static Status invalid_argument(std::string m) { return {StatusCode::invalid_argument, std::move(m)}; }
  static Status corruption(std::string m) { return {StatusCode::corruption, std::move(m)}; }
  static Status not_found(std::string m) { return {StatusCode::not_found, std::move(m)}; }
  static Status io_error(std::string m) { return {StatusCode::io_error, std::move(m)}; }
  static Status unsupported(std::string m) { return {StatusCode::unsupported, std::move(m)}; }
  static Status unavailable(std::string m) { return {StatusCode::unavailable, std::move(m)}; }
  static Status refused(std::string m) { return {StatusCode::refused, std::move(m)}; }
  static Status limit_exceeded(std::string m) { return {StatusCode::limit_exceeded, std::move(m)}; }
  static Status internal(std::string m) { return {StatusCode::internal, std::move(m)}; }

  [[nodiscard]] bool ok() const { return m_code == StatusCode::ok; }
  [[nodiscard]] StatusCode code() const { return m_code; }
  [[nodiscard]] const std::string& message() const { return m_message; }
  // "<code name>: <message>", for logs.
  [[nodiscard]] std::string to_string() const;
  // A copy whose message is prefixed with `context + ": "`.
  [[nodiscard]] Status with_context(const std::string& context) const;

 private:
  StatusCode m_code = StatusCode::ok;
  std::string m_message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_state(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : m_state(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(m_state); }
  [[nodiscard]] const Status& status() const { return std::get<Status>(m_state); }
  [[nodiscard]] T& value() & { return std::get<T>(m_state); }
  [[nodiscard]] const T& value() const& { return std::get<T>(m_state); }
  [[nodiscard]] T&& value() && { return std::get<T>(std::move(m_state)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> m_state;
};

}  // namespace moonquota::util

// Propagate a failed Status from an expression returning Status.
#define MQ_RETURN_IF_ERROR(expr)                   \
  do {                                             \
    ::moonquota::util::Status mq_status_ = (expr); \
    if (!mq_status_.ok()) return mq_status_;       \
  } while (false)

#define MQ_CONCAT_INNER(a, b) a##b
#define MQ_CONCAT(a, b) MQ_CONCAT_INNER(a, b)
// `MQ_ASSIGN_OR_RETURN(auto x, expr)`: unwrap a Result or return its Status.
#define MQ_ASSIGN_OR_RETURN(lhs, expr) MQ_ASSIGN_OR_RETURN_IMPL(MQ_CONCAT(mq_result_, __LINE__), lhs, expr)
#define MQ_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()
