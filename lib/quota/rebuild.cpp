#include "quota/rebuild.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "format/policy_yaml.hpp"
#include "source/policy_etcd.hpp"
#include "util/time_text.hpp"

namespace moonquota::quota {

util::Result<CapacitySpec> parse_capacity(const std::string& text) {
  if (text == "auto") return CapacitySpec{CapacityMode::automatic, 0};
  if (text == "failover") return CapacitySpec{CapacityMode::failover, 0};
  CapacitySpec spec{CapacityMode::fixed_bytes, 0};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), spec.bytes, 10);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return util::Status::invalid_argument("--capacity '" + text + "' is not auto, failover or a byte count");
  }
  return spec;
}

std::string capacity_mode_name(CapacityMode mode) {
  switch (mode) {
    case CapacityMode::automatic: return "auto";
    case CapacityMode::failover: return "failover";
    case CapacityMode::fixed_bytes: return "bytes";
  }
  return "?";
}

namespace {

util::Status load_policy(const RebuildRequest& request, RebuildResult& result,
                         std::map<std::string, std::uint64_t>& policy) {
  if (request.policy_file) {
    auto loaded = format::load_policy_file(*request.policy_file);
    if (!loaded.ok()) return loaded.status();
    policy = loaded->quotas;
    result.policy_source = *request.policy_file;
    result.policy_warnings = loaded->warnings;
  } else if (request.policy_etcd) {
    auto text = source::read_policy_etcd(*request.policy_etcd, request.selection.cluster_id, request.selection.net);
    if (!text.ok()) return text.status();
    result.policy_source = "etcd " + *request.policy_etcd + " " + text->key;
    if (!text->yaml) {
      result.policy_warnings.push_back("key " + text->key + " is missing: an empty policy (every tenant is an orphan)");
      return {};
    }
    auto parsed = format::parse_policy_yaml(*text->yaml, "etcd key " + text->key);
    if (!parsed.ok()) return parsed.status();
    policy = parsed->quotas;
    result.policy_warnings = parsed->warnings;
  }
  return {};
}

SnapshotPoint snapshot_point(const std::string& id, std::int64_t created_at_ms, std::uint64_t restore_time_ms) {
  const auto restore_ms = static_cast<std::int64_t>(
      std::min<std::uint64_t>(restore_time_ms, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
  return {id, created_at_ms, util::span_ms(restore_ms, created_at_ms)};
}

}  // namespace

bool promote_model(const RebuildResult& result) {
  return result.charge_model == restore::ChargeModel::restore && result.path == MasterPath::promote;
}

const char* model_name(const RebuildResult& result) {
  if (result.charge_model == restore::ChargeModel::live) return "live";
  return promote_model(result) ? "promote" : "restore";
}

util::Result<RebuildResult> run_rebuild(source::ObjectStore& store, const RebuildRequest& request) {
  RebuildResult result;
  result.path = request.path;
  result.selection = request.selection;
  result.restore_time_ms = request.restore.restore_time_ms;
  result.fixed_master = request.restore.fixed_master;
  result.charge_model = request.restore.charge_model;
  result.lease_model = request.restore.lease_model;
  result.capacity = request.capacity;
  std::map<std::string, std::uint64_t> policy;
  MQ_RETURN_IF_ERROR(load_policy(request, result, policy));
  if (request.path == MasterPath::promote) {
    if (!request.oplog.given())
      return util::Status::invalid_argument("--path promote needs --oplog-etcd or --oplog-file");
    auto promoted = restore::promote_standby(store, request.selection, request.oplog, request.restore, request.replay);
    if (!promoted.ok()) return promoted.status();
    result.promote = std::move(promoted).value();
    const auto& boot = result.promote->bootstrap;
    if (boot.loaded && boot.snapshot_id && boot.created_at_ms) {
      result.snapshot = snapshot_point(*boot.snapshot_id, *boot.created_at_ms, request.restore.restore_time_ms);
    }
    const auto& validation = result.promote->validation;
    std::uint64_t capacity = 0;
    if (request.capacity.mode == CapacityMode::automatic) capacity = validation.registry_memory_capacity_bytes;
    if (request.capacity.mode == CapacityMode::fixed_bytes) capacity = request.capacity.bytes;
    auto table = build_account_table(validation.tenants, policy, capacity);
    if (!table.ok()) {
      return util::Status(table.status().code(),
                          table.status().message() + " (the promotion's RebuildTenantQuotaUsageFromMetadata throws)");
    }
    result.table = std::move(table).value();
    if (result.charge_model == restore::ChargeModel::restore) {
      result.drops = standby_drop_table(result.promote->bootstrap, result.table);
    }
    return result;
  }
  auto outcome = restore::restore_master(store, request.selection, request.restore);
  if (!outcome.ok()) return outcome.status();
  result.outcome = std::move(outcome).value();
  if (const auto& state = result.outcome.state; state && state->descriptor) {
    result.snapshot =
        snapshot_point(state->snapshot_id, state->descriptor->created_at_ms, request.restore.restore_time_ms);
  }

  std::uint64_t capacity = 0;
  switch (request.capacity.mode) {
    case CapacityMode::automatic:
      capacity = result.outcome.state ? result.outcome.state->mounted_capacity_bytes : 0;
      break;
    case CapacityMode::failover: capacity = 0; break;
    case CapacityMode::fixed_bytes: capacity = request.capacity.bytes; break;
  }
  static const std::map<std::string, restore::TenantTally> k_no_usage;
  const auto& usage = result.outcome.state ? result.outcome.state->tenants : k_no_usage;
  auto table = build_account_table(usage, policy, capacity);
  if (!table.ok()) return table.status();
  result.table = std::move(table).value();
  if (result.charge_model == restore::ChargeModel::restore) result.drops = restore_drop_table(usage, result.table);
  if (request.explain && result.outcome.state) {
    const auto& state = *result.outcome.state;
    MQ_ASSIGN_OR_RETURN(result.explain,
                        restore::explain_tenant(store, state.snapshot_dir, state.snapshot_id, request.restore,
                                                *request.explain, request.explain_top, request.restore.threads));
  }
  return result;
}

}  // namespace moonquota::quota
