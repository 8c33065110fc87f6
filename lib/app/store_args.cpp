#include "app/store_args.hpp"

#include <charconv>

#include "util/elapsed.hpp"
#include "util/span_text.hpp"

namespace moonquota::app {

namespace {

using util::Status;

// The first flag given of those --snapshot-dir leaves nothing to do for.
std::string first_flag_ignored_by_snapshot_dir(const StoreArgs& a, const StoreRules& rules) {
  if (a.cluster_id && !rules.cluster_names_oplog) return "--cluster-id";
  if (a.snapshot) return "--snapshot";
  if (a.catalog) return "--catalog";
  if (a.redis) return "--redis";
  return {};
}

// A flag given with the empty value names nothing: a usage error rather than a default.
Status check_not_empty(const std::optional<std::string>& value, const char* flag) {
  if (value && value->empty()) return Status::invalid_argument(std::string(flag) + ": value must not be empty");
  return {};
}

Status check_store_args(const StoreArgs& a, const StoreRules& rules) {
  MQ_RETURN_IF_ERROR(check_not_empty(a.store, "--store"));
  MQ_RETURN_IF_ERROR(check_not_empty(a.snapshot_dir, "--snapshot-dir"));
  MQ_RETURN_IF_ERROR(check_not_empty(a.cluster_id, "--cluster-id"));
  MQ_RETURN_IF_ERROR(check_not_empty(a.snapshot, "--snapshot"));
  MQ_RETURN_IF_ERROR(check_not_empty(a.redis, "--redis"));
  if (a.store && a.snapshot_dir) return Status::invalid_argument("--store and --snapshot-dir exclude each other");
  if (a.snapshot_dir) {
    if (const std::string ignored = first_flag_ignored_by_snapshot_dir(a, rules); !ignored.empty()) {
      const bool cluster = ignored == "--cluster-id";
      return Status::invalid_argument(ignored +
                                      " does not apply to --snapshot-dir, which reads that one snapshot directory" +
                                      (cluster ? " (with an OpLog, --cluster-id names the OpLog's cluster)" : ""));
    }
  }
  const bool redis_catalog = a.catalog && *a.catalog == "redis";
  if (a.redis && !redis_catalog) {
    return Status::invalid_argument("--redis is read only with --catalog redis (the catalog is embedded by default)");
  }
  if (redis_catalog && !a.redis) { return Status::invalid_argument("--catalog redis needs --redis HOST:PORT"); }
  if (rules.source_required && !a.store && !a.snapshot_dir) {
    return Status::invalid_argument("one of --store or --snapshot-dir is required");
  }
  return {};
}

}  // namespace

util::Result<std::uint64_t> parse_restore_time(const std::string& text) {
  if (text == "now") return util::epoch_ms_now();
  if (!text.empty() && text[0] == '+') {  // "+30s": a restart 30 s from now
    const util::ParsedSpan span = util::parse_span_ms(std::string_view(text).substr(1));
    if (span.fault == util::SpanFault::too_long) {
      return Status::invalid_argument("--restore-time '" + text + "' is more than 100 years from now");
    }
    if (span.fault != util::SpanFault::none) {
      return Status::invalid_argument("--restore-time '" + text +
                                      "' is not +DELAY (a number and a unit ms, s, m, h, d: +30s, +5m)");
    }
    return util::epoch_ms_now() + span.ms;
  }
  std::uint64_t ms = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ms, 10);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return Status::invalid_argument("--restore-time '" + text +
                                    "' is not 'now', +DELAY (+30s) or milliseconds since the epoch");
  }
  return ms;
}

util::Result<ResolvedStore> resolve_store_args(const StoreArgs& a, const StoreRules& rules,
                                               const util::NetLog& net_log) {
  MQ_RETURN_IF_ERROR(check_store_args(a, rules));
  ResolvedStore r;
  auto& s = r.selection;
  if (a.store) s.store_dir = *a.store;
  if (a.snapshot_dir) s.snapshot_dir = *a.snapshot_dir;
  if (a.cluster_id) s.cluster_id = *a.cluster_id;
  if (a.snapshot) s.snapshot = *a.snapshot;
  if (a.catalog) s.catalog = *a.catalog;
  if (a.redis) s.redis = *a.redis;
  MQ_ASSIGN_OR_RETURN(r.s3, s3_settings_from_args(a.s3, net_log));
  MQ_RETURN_IF_ERROR(resolve_store_location(s.store_dir, r.s3));
  MQ_RETURN_IF_ERROR(resolve_store_location(s.snapshot_dir, r.s3));
  MQ_ASSIGN_OR_RETURN(r.restore_time_ms, parse_restore_time(a.restore_time.value_or("now")));
  r.max_payload_bytes = a.max_payload_bytes;
  return r;
}

std::unique_ptr<source::ObjectStore> open_selected_store(const ResolvedStore& resolved) {
  return open_store(restore::store_location(resolved.selection), resolved.s3);
}

}  // namespace moonquota::app
