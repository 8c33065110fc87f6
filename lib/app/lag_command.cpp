#include "app/lag_command.hpp"

#include <map>
#include <set>

#include "app/exit_codes.hpp"
#include "app/rebuild_command.hpp"
#include "format/oplog_batch.hpp"
#include "history/history_store.hpp"
#include "inspect/oplog_inspect.hpp"
#include "inspect/snapshot_select.hpp"
#include "reconcile/ha_metrics.hpp"
#include "reconcile/master_client.hpp"
#include "source/embedded_catalog.hpp"
#include "source/oplog_keys.hpp"
#include "source/oplog_source.hpp"
#include "util/elapsed.hpp"
#include "util/file_reader.hpp"

namespace moonquota::app {

namespace {

using util::Status;

constexpr std::uint64_t k_max_metrics_file_bytes = 256ULL << 20;

// D: the durable prefix's last_seq; `keys` keeps the OpLog for the windows' tenants.
Status read_durable(const LagArgs& a, reconcile::Position& d, source::OpLogKeySet& kept) {
  source::OpLogSelection selection;
  selection.etcd = a.oplog_etcd;
  selection.file = a.oplog_file;
  selection.net.connect_timeout_ms = a.timeout_ms;
  selection.net.read_timeout_ms = a.timeout_ms;
  selection.net.log = a.net_log;
  source::OpLogReadLimits limits;
  limits.keep_values = false;  // an export's batches are read again from their lines (etcd's are held)
  MQ_ASSIGN_OR_RETURN(kept, source::read_oplog(selection, a.cluster_id, limits));
  const source::OpLogKeySet& keys = kept;
  d.source = keys.origin + " " + keys.root + "durable_prefix";
  for (std::size_t i = 0; i < keys.kvs.size(); ++i) {
    const std::string_view suffix = std::string_view(keys.kvs[i].key).substr(keys.root.size());
    if (source::classify_oplog_key(suffix).kind != source::OpLogKeyClass::durable_prefix) continue;
    std::string scratch;
    MQ_ASSIGN_OR_RETURN(const std::string_view value, source::oplog_value(keys, i, scratch));
    model::Findings findings;
    auto prefix = format::decode_durable_prefix(value, findings);
    if (!prefix.ok()) return prefix.status().with_context(d.source);
    d.seq = prefix->last_seq;
    return {};
  }
  d.note = "no durable_prefix key: nothing is durable yet";
  d.seq = 0;
  return {};
}

// S: the last_included_seq of the snapshot a standby bootstraps from (the catalog's latest).
Status read_snapshot(const LagArgs& a, reconcile::Position& s) {
  if (!a.store.store && !a.store.snapshot_dir) {
    s.note = "no --store given";
    return {};
  }
  StoreArgs store = a.store;
  if (!store.cluster_id) store.cluster_id = a.cluster_id;
  MQ_ASSIGN_OR_RETURN(const ResolvedStore resolved, resolve_store_args(store, {}, a.net_log));
  const auto objects = open_selected_store(resolved);
  MQ_ASSIGN_OR_RETURN(const inspect::SelectedSnapshot selected, inspect::select_snapshot(*objects, resolved.selection));
  auto descriptor = source::read_descriptor(*objects, selected.snapshot_dir);
  s.source = "snapshot " + selected.snapshot_id + " descriptor.txt";
  if (!descriptor.ok()) return descriptor.status().with_context(s.source);
  s.seq = descriptor->last_included_seq;
  return {};
}

// One master's /metrics text: from its URL or a saved file.
// `who` names the flags in messages ("standby": --standby / --standby-metrics).
util::Result<std::string> metrics_text(const std::string& url, const std::string& file, const std::string& who,
                                       const LagArgs& a, std::string& source) {
  if (!file.empty()) {
    source = "file " + file;
    auto text = util::read_small_file(file, k_max_metrics_file_bytes);
    if (!text.ok()) return text.status().with_context("--" + who + "-metrics");
    return text;
  }
  auto parsed = reconcile::parse_master_url(url);
  if (!parsed.ok()) return Status::invalid_argument("--" + who + " '" + url + "': expected http://HOST[:PORT]");
  const reconcile::MasterAddress address = *parsed;
  source = address.display + "/metrics";
  reconcile::MasterClient client(address, reconcile::HttpTimeouts{a.timeout_ms, a.timeout_ms},
                                 reconcile::k_default_max_body_bytes, a.net_log);
  MQ_ASSIGN_OR_RETURN(const reconcile::HttpAnswer answer, client.get("/metrics"));
  if (answer.status != 200) { return Status::unavailable(source + " answered HTTP " + std::to_string(answer.status)); }
  return answer.body;
}

// One master's HA gauges from its URL or saved /metrics; none when neither flag was given.
util::Result<std::optional<reconcile::HaMetrics>> master_ha(const std::string& url, const std::string& file,
                                                            const std::string& who, const LagArgs& a,
                                                            std::string& source) {
  if (url.empty() && file.empty()) return std::optional<reconcile::HaMetrics>{};
  MQ_ASSIGN_OR_RETURN(const std::string text, metrics_text(url, file, who, a, source));
  auto m = reconcile::read_ha_metrics(text);
  if (!m.ok()) return m.status().with_context(source);
  return std::optional<reconcile::HaMetrics>(*m);
}

Status read_standby(const LagArgs& a, reconcile::Position& applied) {
  std::string source;
  MQ_ASSIGN_OR_RETURN(const auto m, master_ha(a.standby, a.standby_metrics, "standby", a, source));
  if (!m) {
    applied.note = "no --standby or --standby-metrics given";
    return {};
  }
  applied.source = source + " ha_oplog_applied_sequence_id";
  if (!m->applied_sequence) {
    applied.note = m->ha_section ? "no ha_oplog_applied_sequence_id" : "no HA section (not an HA master)";
    return {};
  }
  applied.seq = m->applied_sequence;
  if (*applied.seq == 0) applied.note = "0: also what a standby that applied nothing since its bootstrap reads";
  return {};
}

Status read_primary(const LagArgs& a, reconcile::Position& committed) {
  std::string source;
  MQ_ASSIGN_OR_RETURN(const auto m, master_ha(a.primary, a.primary_metrics, "primary", a, source));
  if (!m) {
    committed.note = "unknown: no --primary or --primary-metrics given";
    return {};
  }
  if (!m->perf_durable_sequence) {
    committed.source = source;
    committed.note =
        "unknown: the primary exports no committed sequence (only a build with "
        "MOONCAKE_ENABLE_OPLOG_PERF_METRICS exports ha_batch_record_*)";
    return {};
  }
  committed.source = source + " ha_batch_record_durable_sequence + ha_batch_record_committed_queue_depth";
  committed.seq = *m->perf_durable_sequence + m->perf_committed_queue_depth.value_or(0);
  committed.lower_bound = true;
  committed.note = "at least: the batch being written is not in the queue depth";
  return {};
}

// The account tables a standby serves after bootstrapping from the store and replaying the OpLog
// up to a sequence (the promote path of quota-rebuild with --until-seq), each computed once (two
// windows share their end, D), all at one bootstrap instant: only the replay differs.
class PromotionTables {
 public:
  explicit PromotionTables(const LagArgs& a)
      : m_args(a), m_restore_time(a.store.restore_time.value_or(std::to_string(util::epoch_ms_now()))) {}

  util::Result<const quota::AccountTable*> at(std::uint64_t seq) {
    if (auto it = m_tables.find(seq); it != m_tables.end()) return &it->second;
    RebuildArgs r;
    r.store = m_args.store;
    r.store.restore_time = m_restore_time;
    if (!r.store.cluster_id) r.store.cluster_id = m_args.cluster_id;
    r.oplog_etcd = m_args.oplog_etcd;
    r.oplog_file = m_args.oplog_file;
    r.until_seq = seq;
    r.path = "promote";
    r.timeout_ms = m_args.timeout_ms;
    r.net_log = m_args.net_log;
    MQ_ASSIGN_OR_RETURN(const RebuildPlan plan, plan_rebuild(r));
    MQ_ASSIGN_OR_RETURN(RebuildOutcome outcome, run_rebuild_command(plan));
    if (outcome.result.starts_empty()) {
      return Status::corruption("a promotion at sequence " + std::to_string(seq) + " starts EMPTY" +
                                (outcome.result.promote ? ": " + outcome.result.promote->validation.failure : ""));
    }
    return &m_tables.emplace(seq, std::move(outcome.result.table)).first->second;
  }

 private:
  const LagArgs& m_args;
  std::string m_restore_time;
  std::map<std::uint64_t, quota::AccountTable> m_tables;
};

using TouchedKeys = std::map<std::string, std::set<std::string>>;  // tenant -> object keys

// Object keys each tenant's entries touch in (from, to] (segment mounts and unmounts are not
// object keys). One walk per window: the windows' key sets are never held together.
util::Result<TouchedKeys> keys_touched(const source::OpLogKeySet& keys, const reconcile::Window& w) {
  TouchedKeys touched;
  MQ_RETURN_IF_ERROR(inspect::dump_oplog(keys, {}, [&](const inspect::DumpedEntry& e) {
    if (e.entry.sequence <= w.from_seq || e.entry.sequence > w.to_seq || e.segment || e.unmount) return;
    touched[e.entry.tenant_id].insert(e.entry.key);
  }));
  return touched;
}

std::int64_t signed_delta(std::uint64_t to, std::uint64_t from) {
  return to >= from ? static_cast<std::int64_t>(to - from) : -static_cast<std::int64_t>(from - to);
}

// The window per tenant: keys touched, and the promotion's table at each end compared. The tables
// start at the snapshot: an end before it (a standby that applied nothing since it bootstrapped
// reads 0) is taken at the snapshot, which already holds those entries.
Status add_window_tenants(PromotionTables& tables, const source::OpLogKeySet& keys, std::uint64_t snapshot_seq,
                          reconcile::Window& w) {
  const std::uint64_t from = std::max(w.from_seq, snapshot_seq);
  const std::uint64_t to = std::max(w.to_seq, from);
  MQ_ASSIGN_OR_RETURN(const TouchedKeys touched, keys_touched(keys, w));
  MQ_ASSIGN_OR_RETURN(const quota::AccountTable* before, tables.at(from));
  MQ_ASSIGN_OR_RETURN(const quota::AccountTable* after, tables.at(to));
  std::map<std::string, reconcile::WindowTenant> rows;
  for (const auto& [tenant, set] : touched) rows[tenant].keys = set.size();
  const auto add = [&](const quota::AccountTable& t, int sign) {
    for (const auto& row : t.rows) {
      auto& r = rows[row.tenant_id];
      r.charged_bytes_delta += sign * signed_delta(row.charged_bytes, 0);
      r.objects_delta += sign * signed_delta(row.object_count, 0);
    }
  };
  add(*after, 1);
  add(*before, -1);
  w.tenants.emplace();
  for (auto& [tenant, r] : rows) {
    if (r.keys == 0 && r.charged_bytes_delta == 0 && r.objects_delta == 0) continue;
    r.tenant_id = tenant;
    w.tenants->push_back(r);
  }
  if (from != w.from_seq) {
    w.tenants_note = "per tenant from the snapshot's sequence " + std::to_string(from) +
                     " (the entries before it are in the snapshot)";
  }
  return {};
}

// The known windows of the OpLog (catch-up, snapshot gap) per tenant, when a store gives the
// snapshot a promotion starts from.
Status add_tenants(const LagArgs& a, const source::OpLogKeySet& keys, const reconcile::Position& snapshot,
                   reconcile::LagWindows& w) {
  std::vector<reconcile::Window*> windows;
  for (auto* window : {&w.catch_up, &w.snapshot_gap}) {
    if (window->has_value()) windows.push_back(&**window);
  }
  if (!snapshot.seq) {
    for (auto* window : windows)
      window->tenants_note = "per tenant: needs --store (the snapshot a promotion starts from)";
    return {};
  }
  PromotionTables tables(a);
  for (auto* window : windows) MQ_RETURN_IF_ERROR(add_window_tenants(tables, keys, *snapshot.seq, *window));
  return {};
}

// With --db: this reading becomes a sample, and the samples of the last week give the ages.
Status add_history(const LagArgs& a, reconcile::LagReport& r) {
  if (a.db.empty()) {
    for (auto* w : {&r.windows.catch_up, &r.windows.snapshot_gap}) {
      if (w->has_value()) (*w)->age_note = "seconds need --db (the positions sampled over time)";
    }
    return {};
  }
  r.sampled_history = true;
  MQ_ASSIGN_OR_RETURN(const auto store, history::HistoryStore::open(a.db));
  const std::string cluster = a.history_cluster.empty() ? a.cluster_id : a.history_cluster;
  const auto& p = r.positions;
  MQ_RETURN_IF_ERROR(
      store->append_lag_sample(cluster, {r.sampled_at_ms, p.durable.seq, p.standby_applied.seq, p.snapshot.seq}));
  const std::uint64_t since = r.sampled_at_ms > k_lag_history_ms ? r.sampled_at_ms - k_lag_history_ms : 0;
  MQ_ASSIGN_OR_RETURN(const auto samples, store->lag_samples(cluster, since));
  // Samples later than this reading (a --sampled-at in the past) are not part of its history.
  std::vector<reconcile::LagSample> before;
  for (const auto& s : samples) {
    if (s.at_ms <= r.sampled_at_ms) before.push_back(s);
  }
  reconcile::add_sampled_ages(r, before);
  return {};
}

Status check_lag_args(const LagArgs& a) {
  if (a.oplog_etcd.empty() && a.oplog_file.empty()) {
    return Status::invalid_argument("lag needs the OpLog: --oplog-etcd HOST:PORT or --oplog-file FILE");
  }
  if (!a.standby.empty() && !a.standby_metrics.empty()) {
    return Status::invalid_argument("--standby and --standby-metrics name one standby: give one");
  }
  if (!a.primary.empty() && !a.primary_metrics.empty()) {
    return Status::invalid_argument("--primary and --primary-metrics name one primary: give one");
  }
  if (a.gates.max_catch_up_seconds && a.db.empty()) {
    return Status::invalid_argument(
        "--max-catch-up-seconds needs --db DIR: the OpLog has no timestamps, seconds come from sampled positions");
  }
  if (a.sampled_at_ms && (!a.oplog_etcd.empty() || !a.standby.empty() || !a.primary.empty())) {
    return Status::invalid_argument(
        "--sampled-at dates saved inputs (--oplog-file, --standby-metrics, --primary-metrics): live sources are "
        "read now");
  }
  return {};
}

}  // namespace

util::Result<LagOutcome> run_lag(const LagArgs& a) {
  MQ_RETURN_IF_ERROR(check_lag_args(a));
  LagOutcome outcome;
  outcome.report.sampled_at_ms = a.sampled_at_ms.value_or(util::epoch_ms_now());
  auto& p = outcome.report.positions;
  source::OpLogKeySet keys;
  MQ_RETURN_IF_ERROR(read_durable(a, p.durable, keys));
  MQ_RETURN_IF_ERROR(read_snapshot(a, p.snapshot));
  MQ_RETURN_IF_ERROR(read_standby(a, p.standby_applied));
  MQ_RETURN_IF_ERROR(read_primary(a, p.primary_committed));
  outcome.report.windows = reconcile::lag_windows(p, outcome.report.warnings);
  auto& w = outcome.report.windows;
  MQ_RETURN_IF_ERROR(add_tenants(a, keys, p.snapshot, w));
  if (w.not_durable) w.not_durable->tenants_note = "per tenant: unknown (its entries are not in the OpLog yet)";
  MQ_RETURN_IF_ERROR(add_history(a, outcome.report));
  outcome.report.broken_gates = reconcile::broken_gates(outcome.report.windows, a.gates);
  outcome.exit_code = outcome.report.broken_gates.empty() ? k_exit_ok : k_exit_found;
  return outcome;
}

}  // namespace moonquota::app
