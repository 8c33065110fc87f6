#include "source/etcd_gateway.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "format/oplog_base64.hpp"
#include "source/http_call.hpp"

namespace moonquota::source {

namespace {

using nlohmann::json;
using util::Status;

// int64 fields arrive as JSON strings; absent means 0.
std::int64_t i64_field(const json& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end()) return 0;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (!it->is_string()) return 0;
  const auto& s = it->get_ref<const std::string&>();
  std::int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

util::Result<std::string> b64_field(const json& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end()) return std::string();  // proto3 omits empty values
  if (!it->is_string()) return Status::unavailable(std::string("etcd answered a non-string \"") + name + "\"");
  auto decoded = format::base64_decode_canonical(it->get_ref<const std::string&>());
  if (!decoded) return Status::unavailable(std::string("etcd answered \"") + name + "\" that is not base64");
  return std::move(*decoded);
}

}  // namespace

util::Result<HostPort> parse_host_port(const std::string& text, const char* flag) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::invalid_argument(std::string(flag) + " '" + text + "' is not HOST:PORT");
  }
  HostPort hp;
  hp.host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), hp.port);
  if (port.empty() || ec != std::errc() || ptr != port.data() + port.size() || hp.port < 1 || hp.port > 65535) {
    return Status::invalid_argument(std::string(flag) + " '" + text + "' has no valid port");
  }
  return hp;
}

std::string prefix_range_end(const std::string& prefix) {
  std::string end = prefix;
  while (!end.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(end.back());
    if (last < 0xFF) {
      ++last;
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // the whole keyspace
}

EtcdGateway::EtcdGateway(HostPort endpoint, EtcdOptions options)
    : m_endpoint(std::move(endpoint)), m_options(options) {}

std::string EtcdGateway::name() const { return m_endpoint.host + ":" + std::to_string(m_endpoint.port); }

util::Result<std::string> EtcdGateway::post(const std::string& path, const std::string& body) {
  const std::string request = "POST " + http_origin(m_endpoint.host, m_endpoint.port) + path;
  const std::string what = "etcd " + request;
  std::string last_error;
  const int attempts = std::max(1, m_options.attempts);
  std::uint32_t backoff_ms = m_options.initial_backoff_ms;
  int made = 0;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    made = attempt;
    m_options.net.info(what + ": attempt " + std::to_string(attempt) + " of " + std::to_string(attempts));
    HttpCall call;
    call.host = m_endpoint.host;
    call.port = m_endpoint.port;
    call.method = "POST";
    call.path = path;
    call.body = body;
    auto reply = http_call(call, m_options.net);
    bool retry = true;
    if (!reply.ok()) {
      if (reply.status().code() != util::StatusCode::unavailable) return reply.status();
      last_error = reply.status().message();
    } else if (reply->status == 200) {
      return std::move(reply->body);
    } else {
      last_error = request + ": " + describe_http_answer(*reply);
      retry = reply->status >= 500;  // a request error does not get better by retrying
    }
    if (!retry) {
      m_options.net.info(what + ": attempt " + std::to_string(attempt) + " of " + std::to_string(attempts) +
                         " failed: " + last_error + "; not retried");
      break;
    }
    const std::string reason =
        last_error.rfind(request + ": ", 0) == 0 ? last_error.substr(request.size() + 2) : last_error;
    m_options.net.info(util::attempt_failed(what, static_cast<std::size_t>(attempt), static_cast<std::size_t>(attempts),
                                            reason, backoff_ms));
    if (attempt < attempts) {
      std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
      backoff_ms *= 2;
    }
  }
  return Status::unavailable("etcd " + last_error + " (after " + std::to_string(made) + " attempt" +
                             (made == 1 ? "" : "s") + ")");
}

util::Result<RangePage> EtcdGateway::range(const std::string& key, const std::string& range_end, std::uint32_t limit,
                                           std::int64_t revision) {
  json request = {{"key", format::base64_encode(key)}};
  if (!range_end.empty()) request["range_end"] = format::base64_encode(range_end);
  if (limit > 0) request["limit"] = std::to_string(limit);
  if (revision > 0) request["revision"] = std::to_string(revision);
  MQ_ASSIGN_OR_RETURN(std::string text, post("/v3/kv/range", request.dump()));
  json reply = json::parse(text, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) return Status::unavailable("etcd " + name() + " answered non-JSON");
  RangePage page;
  if (auto h = reply.find("header"); h != reply.end() && h->is_object()) page.revision = i64_field(*h, "revision");
  if (auto m = reply.find("more"); m != reply.end() && m->is_boolean()) page.more = m->get<bool>();
  if (auto kvs = reply.find("kvs"); kvs != reply.end()) {
    if (!kvs->is_array()) return Status::unavailable("etcd " + name() + " answered a non-array \"kvs\"");
    page.kvs.reserve(kvs->size());
    for (const auto& kv : *kvs) {
      if (!kv.is_object()) return Status::unavailable("etcd " + name() + " answered a non-object kv");
      MQ_ASSIGN_OR_RETURN(std::string k, b64_field(kv, "key"));
      MQ_ASSIGN_OR_RETURN(std::string v, b64_field(kv, "value"));
      page.kvs.push_back({std::move(k), std::move(v)});
    }
  }
  return page;
}

util::Result<std::optional<std::string>> EtcdGateway::get(const std::string& key) {
  MQ_ASSIGN_OR_RETURN(RangePage page, range(key, "", 0, 0));
  if (page.kvs.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(page.kvs.front().value));
}

util::Result<std::vector<KeyValue>> EtcdGateway::range_prefix(const std::string& prefix, std::uint64_t max_bytes,
                                                              std::uint64_t max_keys) {
  std::vector<KeyValue> out;
  const std::string end = prefix_range_end(prefix);
  std::string start = prefix;
  std::int64_t revision = 0;
  std::uint64_t bytes = 0;
  while (true) {
    MQ_ASSIGN_OR_RETURN(RangePage page, range(start, end, m_options.page_keys, revision));
    if (revision == 0) revision = page.revision;  // every later page reads the same revision
    for (auto& kv : page.kvs) {
      bytes += kv.key.size() + kv.value.size();
      if (bytes > max_bytes || out.size() >= max_keys) {
        return Status::limit_exceeded("etcd keys under '" + prefix + "' exceed the read limit (" +
                                      std::to_string(max_bytes) + " bytes, " + std::to_string(max_keys) + " keys)");
      }
      out.push_back(std::move(kv));
    }
    if (!page.more || out.empty()) break;
    start = out.back().key + std::string(1, '\0');  // the next key after the last one read
  }
  return out;
}

util::Status EtcdGateway::put(const std::string& key, const std::string& value) {
  json request = {{"key", format::base64_encode(key)}, {"value", format::base64_encode(value)}};
  auto reply = post("/v3/kv/put", request.dump());
  return reply.ok() ? Status{} : reply.status();
}

util::Status EtcdGateway::delete_prefix(const std::string& prefix) {
  json request = {{"key", format::base64_encode(prefix)},
                  {"range_end", format::base64_encode(prefix_range_end(prefix))}};
  auto reply = post("/v3/kv/deleterange", request.dump());
  return reply.ok() ? Status{} : reply.status();
}

}  // namespace moonquota::source
