#include "history/history_store.hpp"

#include "history/tenant_row_json.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <system_error>

#include "util/test_pause.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::history {

namespace {

using nlohmann::json;

constexpr const char* k_schema_key = "meta/schema";
constexpr const char* k_schema = "moonquota-history/1";

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string run_key(const RunRecord& r) { return "run/" + hex16(r.run_at_ms) + "/" + r.run_id; }
std::string tenant_prefix(const std::string& tenant) { return "tenant/" + util::to_hex(tenant) + "/"; }
std::string lag_prefix(const std::string& cluster) { return "ha/" + util::to_hex(cluster) + "/"; }

json optional_seq(const std::optional<std::uint64_t>& seq) { return seq ? json(*seq) : json(nullptr); }

std::optional<std::uint64_t> seq_from(const json& j, const char* name) {
  const json& v = j.at(name);
  if (v.is_null()) return std::nullopt;
  return v.get<std::uint64_t>();
}

json point_json(const TenantPoint& p) {
  return {{"t", p.tenant_id},
          {"e", p.expected_charged_bytes},
          {"l", p.live_charged_bytes},
          {"d", p.delta_bytes},
          {"v", p.verdict},
          {"w", p.within_tolerance},
          {"u", p.unexplained_bytes},
          {"uw", p.unexplained_within_tolerance}};
}

// Points recorded before the unexplained remainder existed: the whole delta was unexplained.
TenantPoint point_from(const json& j) {
  TenantPoint p{j.at("t").get<std::string>(),  j.at("e").get<std::uint64_t>(), j.at("l").get<std::uint64_t>(),
                j.at("d").get<std::int64_t>(), j.at("v").get<std::string>(),   j.at("w").get<bool>()};
  p.unexplained_bytes = j.value("u", p.delta_bytes);
  p.unexplained_within_tolerance = j.value("uw", p.within_tolerance);
  return p;
}

std::string run_json(const RunRecord& r) {
  json tenants = json::array();
  for (const auto& p : r.tenants) tenants.push_back(point_json(p));
  json j = {{"run_at_ms", r.run_at_ms},
            {"run_id", r.run_id},
            {"model", r.model},
            {"live_source", r.live_source},
            {"snapshot_id", r.snapshot_id},
            {"metadata_point_ms", r.metadata_point_ms ? json(*r.metadata_point_ms) : json(nullptr)},
            {"last_included_seq", r.last_included_seq},
            {"oplog_applied_seq", r.oplog_applied_seq},
            {"tolerance_bytes", r.tolerance_bytes},
            {"tenant_count", r.tenants.size()},
            {"tenants", std::move(tenants)}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Tenant ids are raw bytes; JSON needs UTF-8, so ids travel hex-encoded inside stored JSON.
TenantPoint encode_id(TenantPoint p) {
  p.tenant_id = util::to_hex(p.tenant_id);
  return p;
}

// util::from_hex of a stored field; the readers turn the throw into corruption naming the key.
std::string from_hex(const std::string& hex) {
  auto bytes = util::from_hex(hex);
  if (!bytes) throw std::runtime_error("'" + util::printable(hex) + "' is not the hex this store writes");
  return std::move(*bytes);
}

util::Result<RunRecord> run_from(const std::string& key, const std::string& value) {
  try {
    json j = json::parse(value);
    RunRecord r;
    r.run_at_ms = j.at("run_at_ms").get<std::uint64_t>();
    r.run_id = j.at("run_id").get<std::string>();
    r.model = j.value("model", std::string("restore"));
    r.live_source = j.at("live_source").get<std::string>();
    r.snapshot_id = j.at("snapshot_id").get<std::string>();
    if (!j.at("metadata_point_ms").is_null()) r.metadata_point_ms = j.at("metadata_point_ms").get<std::int64_t>();
    r.last_included_seq = j.at("last_included_seq").get<std::uint64_t>();
    r.oplog_applied_seq = j.value("oplog_applied_seq", std::uint64_t{0});
    r.tolerance_bytes = j.at("tolerance_bytes").get<std::uint64_t>();
    for (const auto& t : j.at("tenants")) {
      TenantPoint p = point_from(t);
      p.tenant_id = from_hex(p.tenant_id);
      r.tenants.push_back(std::move(p));
    }
    if (r.tenants.size() != j.at("tenant_count").get<std::size_t>()) {
      return util::Status::corruption("history key " + key + ": tenant count does not match");
    }
    return r;
  } catch (const std::exception& e) { return util::Status::corruption("history key " + key + ": " + e.what()); }
}

util::Status from_rocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return {};
  if (s.IsCorruption()) return util::Status::corruption(what + ": " + s.ToString());
  return util::Status::io_error(what + ": " + s.ToString());
}

std::string new_run_id() {
  static std::mt19937_64 rng{std::random_device{}()};
  return hex16(rng()).substr(0, 12);
}

}  // namespace

struct HistoryStore::Impl {
  std::unique_ptr<rocksdb::DB> db;
  std::string dir;
};

HistoryStore::HistoryStore(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
HistoryStore::~HistoryStore() = default;

util::Result<std::unique_ptr<HistoryStore>> HistoryStore::open_with(const std::string& dir, bool create) {
  rocksdb::Options options;
  options.create_if_missing = create;
  options.paranoid_checks = true;
  options.keep_log_file_num = 4;
  options.max_manifest_file_size = 4 << 20;
  rocksdb::DB* raw = nullptr;
  util::pause_point("history-open");
  auto s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) {
    if (!create && s.IsInvalidArgument()) return util::Status::not_found("history store " + dir + " does not exist");
    return from_rocks(s, "cannot open history store " + dir);
  }
  auto impl = std::make_unique<Impl>();
  impl->db.reset(raw);
  impl->dir = dir;
  std::string schema;
  s = impl->db->Get(rocksdb::ReadOptions(), k_schema_key, &schema);
  if (s.IsNotFound()) {
    rocksdb::WriteOptions w;
    w.sync = true;
    MQ_RETURN_IF_ERROR(from_rocks(impl->db->Put(w, k_schema_key, k_schema), "history store " + dir));
  } else if (!s.ok()) {
    return from_rocks(s, "history store " + dir);
  } else if (schema != k_schema) {
    return util::Status::corruption("history store " + dir + ": schema '" + schema + "', expected " + k_schema);
  }
  return std::unique_ptr<HistoryStore>(new HistoryStore(std::move(impl)));
}

util::Result<std::unique_ptr<HistoryStore>> HistoryStore::open(const std::string& dir) { return open_with(dir, true); }

util::Result<std::unique_ptr<HistoryStore>> HistoryStore::open_existing(const std::string& dir) {
  // RocksDB creates the directory, its LOCK and LOG before it finds no store there: look first,
  // so that reading a missing store creates nothing.
  std::error_code ec;
  const std::filesystem::path path(dir);
  if (!std::filesystem::exists(path, ec)) return util::Status::not_found("history store " + dir + " does not exist");
  if (!std::filesystem::is_directory(path, ec)) {
    return util::Status::not_found("history store " + dir + " is not a directory");
  }
  if (!std::filesystem::exists(path / "CURRENT", ec)) {
    return util::Status::not_found("history store " + dir +
                                   " does not exist (no RocksDB CURRENT file in the directory)");
  }
  return open_with(dir, false);
}

util::Status HistoryStore::append(RunRecord& run) {
  if (run.run_id.empty()) run.run_id = new_run_id();
  RunRecord stored = run;
  for (auto& p : stored.tenants) p = encode_id(p);
  rocksdb::WriteBatch batch;
  const std::string suffix = hex16(run.run_at_ms) + "/" + run.run_id;
  for (std::size_t i = 0; i < run.tenants.size(); ++i) {
    batch.Put(tenant_prefix(run.tenants[i].tenant_id) + suffix, point_json(stored.tenants[i]).dump());
  }
  // The run key last: a reader that finds it finds a complete run (the batch is atomic anyway).
  batch.Put(run_key(run), run_json(stored));
  rocksdb::WriteOptions w;
  w.sync = true;
  util::pause_point("history-write");
  util::Status written =
      from_rocks(m_impl->db->Write(w, &batch), "history store " + m_impl->dir + ": cannot record run");
  util::pause_point("history-written");
  return written;
}

util::Result<std::vector<RunRecord>> HistoryStore::runs(std::uint64_t since_ms) const {
  std::vector<RunRecord> out;
  std::unique_ptr<rocksdb::Iterator> it(m_impl->db->NewIterator(rocksdb::ReadOptions()));
  const std::string start = "run/" + hex16(since_ms);
  for (it->Seek(start); it->Valid() && it->key().starts_with("run/"); it->Next()) {
    MQ_ASSIGN_OR_RETURN(auto run, run_from(it->key().ToString(), it->value().ToString()));
    out.push_back(std::move(run));
  }
  MQ_RETURN_IF_ERROR(from_rocks(it->status(), "history store " + m_impl->dir));
  return out;
}

util::Result<std::vector<HistoryStore::TimedPoint>> HistoryStore::tenant_points(const std::string& tenant_id,
                                                                                std::uint64_t since_ms) const {
  std::vector<TimedPoint> out;
  const std::string prefix = tenant_prefix(tenant_id);
  std::unique_ptr<rocksdb::Iterator> it(m_impl->db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix + hex16(since_ms)); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string key = it->key().ToString();
    const std::string rest = key.substr(prefix.size());  // <16 hex>/<run_id>
    try {
      TimedPoint tp;
      tp.run_at_ms = std::stoull(rest.substr(0, 16), nullptr, 16);
      tp.run_id = rest.size() > 17 ? rest.substr(17) : "";
      tp.point = point_from(json::parse(it->value().ToString()));
      tp.point.tenant_id = tenant_id;
      out.push_back(std::move(tp));
    } catch (const std::exception& e) {
      return util::Status::corruption("history key " + util::printable(key) + ": " + e.what());
    }
  }
  MQ_RETURN_IF_ERROR(from_rocks(it->status(), "history store " + m_impl->dir));
  return out;
}

util::Status HistoryStore::append_repair(const RepairRecord& r) {
  const json j = {{"cluster_hex", util::to_hex(r.cluster)},
                  {"plan_audit_at_ms", r.plan_audit_at_ms},
                  {"action", r.action},
                  {"tenant_hex", util::to_hex(r.tenant_id)},
                  {"request_hex", util::to_hex(r.request)},
                  {"outcome", r.outcome},
                  {"detail_hex", util::to_hex(r.detail)},
                  {"before", tenant_row_json(r.before)},
                  {"after", tenant_row_json(r.after)}};
  char step[9];
  std::snprintf(step, sizeof step, "%08x", r.step);
  rocksdb::WriteOptions w;
  w.sync = true;
  return from_rocks(m_impl->db->Put(w, "repair/" + hex16(r.at_ms) + "/" + step, j.dump()),
                    "history store " + m_impl->dir + ": cannot record the repair step");
}

util::Result<std::vector<RepairRecord>> HistoryStore::repairs(std::uint64_t since_ms) const {
  std::vector<RepairRecord> out;
  const std::string prefix = "repair/";
  std::unique_ptr<rocksdb::Iterator> it(m_impl->db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix + hex16(since_ms)); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string key = it->key().ToString();
    try {
      const json j = json::parse(it->value().ToString());
      RepairRecord r;
      r.at_ms = std::stoull(key.substr(prefix.size(), 16), nullptr, 16);
      r.step = static_cast<std::uint32_t>(std::stoul(key.substr(prefix.size() + 17), nullptr, 16));
      r.cluster = from_hex(j.at("cluster_hex").get<std::string>());
      r.plan_audit_at_ms = j.at("plan_audit_at_ms").get<std::uint64_t>();
      r.action = j.at("action").get<std::string>();
      r.tenant_id = from_hex(j.at("tenant_hex").get<std::string>());
      r.request = from_hex(j.at("request_hex").get<std::string>());
      r.outcome = j.at("outcome").get<std::string>();
      r.detail = from_hex(j.at("detail_hex").get<std::string>());
      r.before = tenant_row_from(j.at("before"), r.tenant_id);
      r.after = tenant_row_from(j.at("after"), r.tenant_id);
      out.push_back(std::move(r));
    } catch (const std::exception& e) {
      return util::Status::corruption("history key " + util::printable(key) + ": " + e.what());
    }
  }
  MQ_RETURN_IF_ERROR(from_rocks(it->status(), "history store " + m_impl->dir));
  return out;
}

util::Status HistoryStore::append_lag_sample(const std::string& cluster, const reconcile::LagSample& sample) {
  const json j = {{"durable", optional_seq(sample.durable)},
                  {"standby_applied", optional_seq(sample.standby_applied)},
                  {"snapshot", optional_seq(sample.snapshot)}};
  rocksdb::WriteOptions w;
  w.sync = true;
  return from_rocks(m_impl->db->Put(w, lag_prefix(cluster) + hex16(sample.at_ms), j.dump()),
                    "history store " + m_impl->dir + ": cannot record the OpLog positions");
}

util::Result<std::vector<reconcile::LagSample>> HistoryStore::lag_samples(const std::string& cluster,
                                                                          std::uint64_t since_ms) const {
  std::vector<reconcile::LagSample> out;
  const std::string prefix = lag_prefix(cluster);
  std::unique_ptr<rocksdb::Iterator> it(m_impl->db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix + hex16(since_ms)); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string key = it->key().ToString();
    try {
      const json j = json::parse(it->value().ToString());
      reconcile::LagSample s;
      s.at_ms = std::stoull(key.substr(prefix.size()), nullptr, 16);
      s.durable = seq_from(j, "durable");
      s.standby_applied = seq_from(j, "standby_applied");
      s.snapshot = seq_from(j, "snapshot");
      out.push_back(s);
    } catch (const std::exception& e) {
      return util::Status::corruption("history key " + util::printable(key) + ": " + e.what());
    }
  }
  MQ_RETURN_IF_ERROR(from_rocks(it->status(), "history store " + m_impl->dir));
  return out;
}

}  // namespace moonquota::history
