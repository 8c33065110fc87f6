#include "support/master_stand_in.hpp"
#include "reconcile/prometheus_text.hpp"

#include <httplib.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <sstream>

namespace moonquota::test {

namespace {

using reconcile::LiveTenant;

constexpr const char* k_json_type = "application/json; charset=utf-8";
constexpr const char* k_metrics_type = "text/plain; version=0.0.4";
constexpr const char* k_inactive =
    R"({"success":false,"error_code":-1011,"error_message":"service plane is not active"})";
constexpr const char* k_mode_off =
    R"({"success":false,"error_code":-1011,"error_message":"UNAVAILABLE_IN_CURRENT_MODE"})";
constexpr const char* k_invalid_id = R"({"success":false,"error_code":-600,"error_message":"Invalid tenant_id"})";
constexpr const char* k_not_found = R"({"success":false,"error_code":-704,"error_message":"OBJECT_NOT_FOUND"})";
constexpr const char* k_missing_id =
    R"({"success":false,"error_code":-600,"error_message":"Missing or invalid tenant_id"})";
constexpr const char* k_bad_quota =
    R"({"success":false,"error_code":-600,"error_message":"Tenant quota must be in [1, 2^63 - 1] bytes"})";
constexpr const char* k_persist_fail = R"({"success":false,"error_code":-1503,"error_message":"PERSISTENT_FAIL"})";
constexpr const char* k_not_empty = R"({"success":false,"error_code":-1702,"error_message":"TENANT_NOT_EMPTY"})";

const char* b(bool v) { return v ? "true" : "false"; }

std::string snapshot_json(const LiveTenant& t, const std::string& malformed) {
  std::string charged = std::to_string(t.charged_bytes);
  if (malformed == "negative") charged = "-" + charged;
  if (malformed == "float") charged += ".5";
  return "{\"tenant_id\":" + ylt_json_string(t.tenant_id) +
         ",\"requested_quota_bytes\":" + std::to_string(t.requested_quota_bytes) +
         ",\"effective_quota_bytes\":" + std::to_string(t.effective_quota_bytes) + ",\"charged_bytes\":" + charged +
         ",\"admission_closed\":" + b(t.admission_closed) + ",\"over_quota\":" + b(t.over_quota) +
         ",\"has_explicit_policy\":" + b(t.has_explicit_policy) + "}";
}

std::string label(const std::string& raw) { return reconcile::escape_label_value(raw); }

bool valid_tenant_id(const std::string& id) {
  if (id.empty() || id.front() == '_') return false;
  for (unsigned char c : id) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

constexpr const char* k_master_section =
    "# HELP master_key_count Total number of keys\n"
    "# TYPE master_key_count gauge\n"
    "master_key_count 42\n"
    "# HELP master_put_start_latency_us PutStart latency\n"
    "# TYPE master_put_start_latency_us histogram\n"
    "master_put_start_latency_us_bucket{le=\"100\"} 3\n"
    "master_put_start_latency_us_bucket{le=\"+Inf\"} 5\n"
    "master_put_start_latency_us_sum 1234.5\n"
    "master_put_start_latency_us_count 5\n"
    "# a free-form comment the parser must skip\n"
    "master_eviction_ratio NaN\n"
    "master_uptime_seconds 12.5 1795956295488\n"
    "# HELP ha_leader_epoch HA leadership epoch\n"
    "# TYPE ha_leader_epoch gauge\n"
    "ha_leader_epoch 1\n";

}  // namespace

std::string ylt_json_string(const std::string& raw) {
  static const char* hex = "0123456789ABCDEF";
  auto u = [&](std::string& out, unsigned cp) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out.push_back(hex[(cp >> shift) & 0xF]);
  };
  std::string out = "\"";
  for (std::size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c < 0x20) {
      u(out, c);
      ++i;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else {
      unsigned cp = c;
      std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (len > 1 && i + len <= raw.size()) {
        cp = c & (0xFF >> (len + 1));
        for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(raw[i + k]) & 0x3F);
      } else {
        len = 1;
      }
      if (cp > 0xFFFF) {
        cp -= 0x10000;
        u(out, 0xD800 + (cp >> 10));
        u(out, 0xDC00 + (cp & 0x3FF));
      } else {
        u(out, cp);
      }
      i += len;
    }
  }
  return out + "\"";
}

std::vector<LiveTenant> live_tenants_from(const quota::AccountTable& table) {
  std::vector<LiveTenant> out;
  for (const auto& row : table.rows) {
    if (!row.visible) continue;
    out.push_back({row.tenant_id, row.requested_quota_bytes, row.effective_quota_bytes, row.charged_bytes,
                   row.admission_closed, row.over_quota, row.has_explicit_policy});
  }
  return out;
}

struct MasterStandIn::Server {
  httplib::Server http;
};

MasterStandIn::MasterStandIn(std::vector<LiveTenant> tenants, std::uint64_t capacity_bytes, StandInKnobs knobs)
    : m_tenants(std::move(tenants)), m_capacity_bytes(capacity_bytes), m_knobs(std::move(knobs)) {}

MasterStandIn::MasterStandIn(StandInAdminState admin, StandInKnobs knobs)
    : m_capacity_bytes(admin.capacity_bytes), m_knobs(std::move(knobs)) {
  m_admin = std::move(admin);
  recompute();
}

void MasterStandIn::recompute() {
  auto table = quota::build_account_table(m_admin->usage, m_admin->policy, m_admin->capacity_bytes);
  if (table.ok()) m_tenants = live_tenants_from(*table);
}

MasterStandIn::~MasterStandIn() { stop(); }

std::vector<LiveTenant> MasterStandIn::tenants_now(std::uint64_t request_number) const {
  std::map<std::string, LiveTenant> rows;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& t : m_tenants) rows[t.tenant_id] = t;
  }
  for (const auto& t : m_knobs.extra) rows[t.tenant_id] = t;
  for (auto& [id, t] : rows) {
    std::int64_t delta = 0;
    if (auto it = m_knobs.drift_bytes.find(id); it != m_knobs.drift_bytes.end()) delta += it->second;
    if (auto it = m_knobs.inflight_bytes.find(id); it != m_knobs.inflight_bytes.end() && request_number % 2 == 1) {
      delta += static_cast<std::int64_t>(it->second);
    }
    const std::int64_t charged = static_cast<std::int64_t>(t.charged_bytes) + delta;
    t.charged_bytes = charged < 0 ? 0 : static_cast<std::uint64_t>(charged);
    t.over_quota = t.charged_bytes > t.effective_quota_bytes;
    if (m_knobs.flip_admission.count(id)) t.admission_closed = !t.admission_closed;
  }
  std::vector<LiveTenant> out;
  for (auto& [id, t] : rows) {
    if (m_knobs.hidden.count(id)) continue;
    if (!t.has_explicit_policy && t.charged_bytes == 0) continue;  // invisible
    out.push_back(t);
  }
  return out;
}

std::string MasterStandIn::list_body(std::uint64_t request_number) const {
  std::string body = R"({"success":true,"data":[)";
  bool first = true;
  for (const auto& t : tenants_now(request_number)) {
    body += (first ? "" : ",") + snapshot_json(t, m_knobs.malformed);
    first = false;
  }
  body += "]}";
  if (m_knobs.malformed == "json") body.resize(body.size() / 2);
  return body;
}

// The HA section as a master at 3b5a5941 prints it (no prefix, no labels): the five sequence and
// queue gauges and the standby state always (set to 0 at start), the batch-record gauges only in a
// build with MOONCAKE_ENABLE_OPLOG_PERF_METRICS.
static void write_ha_section(const StandInKnobs& k, std::ostringstream& out) {
  const auto gauge = [&out](const char* name, const char* help, std::uint64_t value) {
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " gauge\n" << name << " " << value << "\n";
  };
  gauge("ha_oplog_last_sequence_id", "Latest OpLog sequence ID written by Primary", 0);
  gauge("ha_oplog_applied_sequence_id", "Latest OpLog sequence ID applied by Standby", k.ha_applied_sequence);
  gauge("ha_oplog_standby_lag", "Number of OpLog entries Standby is behind Primary", 0);
  gauge("ha_oplog_pending_entries", "Number of out-of-order entries waiting in OpLogApplier", 0);
  gauge("ha_pending_mutation_queue_size", "Number of mutations pending etcd write retry", 0);
  if (k.ha_perf_durable_sequence) {
    gauge("ha_batch_record_committed_queue_depth", "Committed batch-record entries waiting for durability",
          k.ha_perf_committed_queue_depth);
    gauge("ha_batch_record_callback_queue_depth", "Durable batch-record callbacks waiting to run", 0);
    gauge("ha_batch_record_last_batch_id", "Latest durable batch-record batch ID", k.ha_perf_last_batch_id);
    gauge("ha_batch_record_durable_sequence", "Latest durable batch-record OpLog sequence",
          *k.ha_perf_durable_sequence);
  }
  gauge("ha_standby_state",
        "Current state of the Standby service (0=STOPPED, 1=CONNECTING, 2=SYNCING, 3=WATCHING, 4=RECOVERING, "
        "5=RECONNECTING, 6=PROMOTING, 7=PROMOTED, 8=FAILED)",
        k.ha_standby_state);
}

std::string MasterStandIn::metrics_body(std::uint64_t request_number, bool with_tenant_block) const {
  std::ostringstream out;
  out << k_master_section;
  write_ha_section(m_knobs, out);
  const auto tenants = tenants_now(request_number);
  if (!tenants.empty()) {
    out << "mooncake_tenant_quota_reject_total{tenant_id=\"" << label(tenants.front().tenant_id)
        << "\",reason=\"quota_exceeded\"} 2\n";
  }
  if (!with_tenant_block) return out.str();
  static const std::pair<const char*, const char*> families[] = {
      {"requested_bytes", "Requested tenant quota policy in bytes"},
      {"effective_bytes", "Effective tenant quota in bytes"},
      {"charged_bytes", "Tenant quota charge in bytes"},
      {"admission_closed", "Tenant quota admission-closed flag"},
      {"over_quota", "Tenant over-quota flag"},
      {"explicit_policy", "Tenant explicit policy flag"}};
  for (const auto& [name, help] : families) {
    out << "# HELP mooncake_tenant_quota_" << name << " " << help << "\n# TYPE mooncake_tenant_quota_" << name
        << " gauge\n";
  }
  std::uint64_t requested_sum = 0, effective_sum = 0;
  for (const auto& t : tenants) {
    const std::string l = "{tenant_id=\"" + label(t.tenant_id) + "\"} ";
    const std::pair<const char*, std::uint64_t> values[] = {
        {"requested_bytes", t.requested_quota_bytes}, {"effective_bytes", t.effective_quota_bytes},
        {"charged_bytes", t.charged_bytes},           {"admission_closed", t.admission_closed ? 1u : 0u},
        {"over_quota", t.over_quota ? 1u : 0u},       {"explicit_policy", t.has_explicit_policy ? 1u : 0u}};
    auto omitted = m_knobs.omit_series.find(t.tenant_id);
    for (const auto& [name, value] : values) {
      if (omitted != m_knobs.omit_series.end() && omitted->second == name) continue;
      out << "mooncake_tenant_quota_" << name << l << value << "\n";
    }
    requested_sum += t.requested_quota_bytes;
    effective_sum += t.effective_quota_bytes;
  }
  if (m_knobs.malformed == "metrics") out << "mooncake_tenant_quota_charged_bytes{tenant_id=\"broken} 1\n";
  out << "# HELP mooncake_tenant_quota_allocatable_capacity_bytes Global tenant quota allocatable capacity in bytes\n"
      << "# TYPE mooncake_tenant_quota_allocatable_capacity_bytes gauge\n"
      << "mooncake_tenant_quota_allocatable_capacity_bytes " << m_capacity_bytes << "\n"
      << "# HELP mooncake_tenant_quota_requested_bytes_sum Global requested tenant quota sum in bytes\n"
      << "# TYPE mooncake_tenant_quota_requested_bytes_sum gauge\n"
      << "mooncake_tenant_quota_requested_bytes_sum " << requested_sum << "\n"
      << "# HELP mooncake_tenant_quota_effective_bytes_sum Global effective tenant quota sum in bytes\n"
      << "# TYPE mooncake_tenant_quota_effective_bytes_sum gauge\n"
      << "mooncake_tenant_quota_effective_bytes_sum " << effective_sum << "\n";
  return out.str();
}

int MasterStandIn::start(int port) {
  m_server = std::make_unique<Server>();
  auto& http = m_server->http;
  // Every answer goes through here: the slow and reset knobs apply to all routes.
  auto answer = [this](httplib::Response& res, int status, std::string body, const char* type) {
    if (m_knobs.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(m_knobs.slow_ms));
    res.status = status;
    const std::uint64_t number = m_all_requests.fetch_add(1);
    if (number < m_knobs.proxy_error_first) {
      res.status = m_knobs.proxy_status;
      const std::string line = std::to_string(m_knobs.proxy_status) + " Proxy Error";
      res.set_content("<html>\r\n<head><title>" + line + "</title></head>\r\n<body>\r\n<center><h1>" + line +
                          "</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n",
                      "text/html");
      return;
    }
    if (number < m_knobs.truncate_first) {
      auto whole = std::make_shared<std::string>(std::move(body));
      res.set_content_provider(whole->size(), type, [whole](std::size_t offset, std::size_t, httplib::DataSink& sink) {
        if (offset >= whole->size() / 2) return false;  // close mid-body
        sink.write(whole->data(), whole->size() / 2);
        return true;
      });
      return;
    }
    if (number < m_knobs.reset_first) {
      const std::size_t length = body.size() + 100;
      res.set_content_provider(length, type, [](std::size_t, std::size_t, httplib::DataSink&) { return false; });
      return;
    }
    res.set_content(std::move(body), type);
  };
  http.Get("/api/v1/tenant_quotas", [this, answer](const httplib::Request& req, httplib::Response& res) {
    const bool one = req.has_param("tenant_id") && !req.get_param_value("tenant_id").empty();
    if (m_gated_requests.fetch_add(1) < m_knobs.unavailable_first) return answer(res, 503, k_inactive, k_json_type);
    const std::string id = one ? req.get_param_value("tenant_id") : "";
    if (one && !valid_tenant_id(id)) return answer(res, 400, k_invalid_id, k_json_type);
    if (m_knobs.multi_tenancy_off) return answer(res, 409, k_mode_off, k_json_type);
    const std::uint64_t n = m_list_requests.fetch_add(1) + 1;
    if (!one) return answer(res, 200, list_body(n), k_json_type);
    for (const auto& t : tenants_now(n)) {
      if (t.tenant_id == id)
        return answer(res, 200, "{\"success\":true,\"data\":" + snapshot_json(t, "") + "}", k_json_type);
    }
    return answer(res, 404, k_not_found, k_json_type);
  });
  http.Get("/metrics", [this, answer](const httplib::Request&, httplib::Response& res) {
    const bool serving = m_gated_requests.load() > m_knobs.unavailable_first || m_knobs.unavailable_first == 0;
    const bool block = serving && !m_knobs.multi_tenancy_off && !m_knobs.omit_tenant_block;
    const std::uint64_t n = m_metrics_requests.fetch_add(1) + 1;
    answer(res, 200, metrics_body(n, block), k_metrics_type);
  });
  // The admin routes (live-master-api.md §5.3, §5.4, and remove_all), in the master's check order.
  const auto persist_fails = [this] { return m_persist_attempts.fetch_add(1) < m_knobs.persist_fail_first; };
  const auto gate = [this] { return m_gated_requests.fetch_add(1) < m_knobs.unavailable_first; };
  const auto visible_row = [this](const std::string& id) -> std::optional<LiveTenant> {
    for (const auto& t : tenants_now(0)) {
      if (t.tenant_id == id) return t;
    }
    return std::nullopt;
  };
  http.Put("/api/v1/tenant_quotas", [=, this](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.has_param("tenant_id") ? req.get_param_value("tenant_id") : "";
    if (!valid_tenant_id(id)) return answer(res, 400, k_missing_id, k_json_type);
    const auto body = nlohmann::json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      return answer(res, 400, R"({"success":false,"error_code":-600,"error_message":"Invalid JSON body: parse error"})",
                    k_json_type);
    }
    const auto member = body.find("requested_quota_bytes");
    const std::uint64_t bytes = member != body.end() && member->is_number_unsigned() ? member->get<std::uint64_t>() : 0;
    if (bytes == 0 || bytes > static_cast<std::uint64_t>(INT64_MAX)) return answer(res, 400, k_bad_quota, k_json_type);
    if (gate()) return answer(res, 503, k_inactive, k_json_type);
    if (m_knobs.multi_tenancy_off) return answer(res, 409, k_mode_off, k_json_type);
    if (!m_admin || persist_fails()) return answer(res, 500, k_persist_fail, k_json_type);
    {
      std::lock_guard lock(m_mutex);
      m_admin->policy[id] = bytes;
      recompute();
    }
    const auto row = visible_row(id);
    return answer(res, 200, "{\"success\":true,\"data\":" + snapshot_json(*row, "") + "}", k_json_type);
  });
  http.Delete("/api/v1/tenant_quotas", [=, this](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.has_param("tenant_id") ? req.get_param_value("tenant_id") : "";
    if (!valid_tenant_id(id)) return answer(res, 400, k_missing_id, k_json_type);
    if (gate()) return answer(res, 503, k_inactive, k_json_type);
    if (m_knobs.multi_tenancy_off) return answer(res, 409, k_mode_off, k_json_type);
    const auto row = visible_row(id);
    if (!m_admin || !row || !row->has_explicit_policy) return answer(res, 404, k_not_found, k_json_type);
    bool holds_objects = false;
    {
      std::lock_guard lock(m_mutex);
      const auto it = m_admin->usage.find(id);
      holds_objects = it != m_admin->usage.end() && it->second.objects > 0;
    }
    if (row->charged_bytes != 0 || holds_objects) return answer(res, 409, k_not_empty, k_json_type);
    if (persist_fails()) return answer(res, 500, k_persist_fail, k_json_type);
    {
      std::lock_guard lock(m_mutex);
      m_admin->policy.erase(id);
      recompute();
    }
    return answer(res, 200, R"({"success":true,"data":null})", k_json_type);
  });
  http.Post("/api/v1/remove_all", [=, this](const httplib::Request& req, httplib::Response& res) {
    // The master reads tenant_id without URL-decoding it: take it from the raw target.
    std::string id;
    const auto query = req.target.find('?');
    if (query != std::string::npos) {
      std::string_view rest = std::string_view(req.target).substr(query + 1);
      while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        if (pair.substr(0, 10) == "tenant_id=") id = std::string(pair.substr(10));
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
      }
    }
    if (gate()) return answer(res, 503, k_inactive, k_json_type);
    std::uint64_t removed = 0;
    if (m_admin) {
      std::lock_guard lock(m_mutex);
      for (auto& [tenant, tally] : m_admin->usage) {
        if (!id.empty() && tenant != id) continue;
        removed += tally.objects;
        tally = restore::TenantTally{};
      }
      recompute();
    }
    return answer(res, 200, "{\"success\":true,\"removed_count\":" + std::to_string(removed) + "}", k_json_type);
  });
  const int bound = port == 0 ? http.bind_to_any_port("127.0.0.1") : (http.bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound <= 0) return -1;
  m_thread = std::thread([this] { m_server->http.listen_after_bind(); });
  while (!m_server->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return bound;
}

void MasterStandIn::stop() {
  if (!m_server) return;
  m_server->http.stop();
  if (m_thread.joinable()) m_thread.join();
  m_server.reset();
}

}  // namespace moonquota::test
