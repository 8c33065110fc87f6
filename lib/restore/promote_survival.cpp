#include "restore/promote_survival.hpp"

#include <algorithm>
#include <utility>

#include "model/enums.hpp"

namespace moonquota::restore {

namespace {

using Amounts = std::map<std::string, SurvivalAmount, std::less<>>;

SurvivalAmount drop_amount(const StandbyTenantDrops& d) {
  SurvivalAmount a;
  a.objects = d.objects.size_zero + d.objects.lease_expired + d.objects.non_complete + d.objects.invalid_memory;
  a.bytes = d.lease_expired_size_bytes + d.non_complete_size_bytes;
  a.charged_bytes = d.lease_expired_bytes + d.non_complete_bytes;
  return a;
}

Amounts bootstrap_drops(const StandbyBootstrap& bootstrap) {
  Amounts out;
  for (const auto& [tenant, drops] : bootstrap.tenants) out[tenant] += drop_amount(drops);
  return out;
}

void fill_kept(const PromotionValidation& validation, PromoteSurvivalPoint& point) {
  point.starts_empty = !validation.ok;
  point.validation_failure = validation.failure;
  for (const auto& [tenant, tally] : validation.tenants) {
    SurvivalAmount& a = point.kept[tenant];
    a.objects = tally.objects;
    a.charged_bytes = tally.charged_bytes;
    auto bytes = validation.tenant_object_bytes.find(tenant);
    if (bytes != validation.tenant_object_bytes.end()) a.bytes = bytes->second;
  }
}

void fill_bootstrap(const StandbyBootstrap& bootstrap, PromoteSurvivalPoint& point) {
  point.bootstrap_loaded = bootstrap.loaded;
  point.bootstrap_failure = bootstrap.failure;
}

// Objects the lease-ignoring bootstrap loaded, per snapshot tenant, by the first point at which a
// bootstrap would have dropped them for their lease (index points.size(): never).
std::map<std::string, std::vector<SurvivalAmount>, std::less<>> lease_buckets(
    const StandbyStore& store, const std::vector<std::uint64_t>& points) {
  std::map<std::string, std::vector<SurvivalAmount>, std::less<>> out;
  for (const StandbyEntry& entry : store.entries()) {
    const StandbyObject& object = entry.object;
    const std::uint64_t deadline = object.bootstrap_lease_timeout_ms;
    const auto first = static_cast<std::size_t>(
        std::partition_point(points.begin(), points.end(), [&](std::uint64_t at) { return at < deadline; }) -
        points.begin());
    if (first == points.size()) continue;
    std::uint64_t complete_memory = 0;
    for (const auto& r : object.replicas) {
      complete_memory += r.variant == format::payload_variant::memory && r.status == model::replica_status::complete;
    }
    const std::string_view tenant = store.tenant_name(entry.tenant);
    auto it = out.find(tenant);
    if (it == out.end()) it = out.emplace(std::string(tenant), std::vector<SurvivalAmount>(points.size())).first;
    SurvivalAmount& a = it->second[first];
    ++a.objects;
    a.bytes += object.size;
    a.charged_bytes += util::clamped_mul(object.size, complete_memory);
  }
  return out;
}

util::Result<PromoteSurvival> each_point_on_its_own(PromoteSurvival out, source::ObjectStore& object_store,
                                                    const StoreSelection& selection,
                                                    const source::OpLogSelection& oplog, const RestoreOptions& options,
                                                    const ReplayOptions& replay_options,
                                                    const SurvivalOptions& survival) {
  out.per_point_runs = true;
  for (const std::uint64_t at : survival.points_ms) {
    RestoreOptions at_options = options;
    at_options.restore_time_ms = at;
    at_options.lease_model = survival.lease_model;
    MQ_ASSIGN_OR_RETURN(PromoteOutcome run,
                        promote_standby(object_store, selection, oplog, at_options, replay_options));
    PromoteSurvivalPoint point;
    fill_bootstrap(run.bootstrap, point);
    point.dropped = bootstrap_drops(run.bootstrap);
    fill_kept(run.validation, point);
    out.points.push_back(std::move(point));
    out.outcome = std::move(run);  // the header shows the last point's bootstrap and replay
  }
  return out;
}

// The points from one streaming pass.
PromoteSurvival from_stream(StreamedPoints&& streamed, const SurvivalOptions& survival) {
  PromoteSurvival out;
  out.engine = PromoteEngine::streaming;
  const PromotionValidation every_object = std::move(streamed.outcome.validation);
  out.outcome = std::move(streamed.outcome);
  out.outcome.validation = PromotionValidation{};  // as the whole-map form: the points carry it
  const Amounts always_dropped = bootstrap_drops(out.outcome.bootstrap);
  for (std::size_t p = 0; p < survival.points_ms.size(); ++p) {
    PromoteSurvivalPoint point;
    fill_bootstrap(out.outcome.bootstrap, point);
    point.dropped = always_dropped;
    for (const auto& [tenant, by_point] : streamed.lease_drops) {
      for (std::size_t d = 0; d <= p && d < by_point.size(); ++d) {
        if (by_point[d].objects > 0) point.dropped[tenant] += by_point[d];
      }
    }
    // Without lease points (the keep model) every point holds every object.
    fill_kept(streamed.point_validations.empty() ? every_object : streamed.point_validations[p], point);
    out.points.push_back(std::move(point));
  }
  return out;
}

}  // namespace

util::Result<PromoteSurvival> survive_promotion(source::ObjectStore& object_store, const StoreSelection& selection,
                                                const source::OpLogSelection& oplog, const RestoreOptions& options,
                                                const ReplayOptions& replay_options, const SurvivalOptions& survival) {
  if (!std::is_sorted(survival.points_ms.begin(), survival.points_ms.end())) {
    return util::Status::internal("survival points are not in ascending order");
  }
  RestoreOptions keep_leases = options;
  keep_leases.lease_model = LeaseModel::keep;
  const std::vector<std::uint64_t> no_points;
  MQ_ASSIGN_OR_RETURN(
      std::optional<StreamedPoints> streamed,
      promote_standby_at_points(object_store, selection, oplog, keep_leases, replay_options,
                                survival.lease_model == LeaseModel::upstream ? survival.points_ms : no_points));
  if (streamed) return from_stream(std::move(*streamed), survival);
  return survive_promotion_whole_map(object_store, selection, oplog, options, replay_options, survival);
}

util::Result<PromoteSurvival> survive_promotion_whole_map(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, const SurvivalOptions& survival) {
  if (!std::is_sorted(survival.points_ms.begin(), survival.points_ms.end())) {
    return util::Status::internal("survival points are not in ascending order");
  }
  const auto& points = survival.points_ms;
  RestoreOptions keep_leases = options;
  keep_leases.lease_model = LeaseModel::keep;
  std::map<std::string, std::vector<SurvivalAmount>, std::less<>> buckets;
  bool bootstrap_failed = false;
  StandbyStore store;
  MQ_ASSIGN_OR_RETURN(PromoteOutcome shared,
                      bootstrap_and_replay(object_store, selection, oplog, keep_leases, replay_options, store,
                                           [&](const StandbyBootstrap& bootstrap, const StandbyStore& loaded) {
                                             // A failed load that expired leases could have avoided is modelled per
                                             // point.
                                             bootstrap_failed = bootstrap.snapshot_id.has_value() &&
                                                                !bootstrap.loaded &&
                                                                survival.lease_model == LeaseModel::upstream;
                                             if (bootstrap_failed) return false;
                                             if (survival.lease_model == LeaseModel::upstream)
                                               buckets = lease_buckets(loaded, points);
                                             return true;
                                           }));
  PromoteSurvival out;
  out.outcome = std::move(shared);
  if (!out.outcome.bootstrap.snapshot_id) out.engine = PromoteEngine::tail_only;  // nothing to bootstrap
  if (bootstrap_failed)
    return each_point_on_its_own(std::move(out), object_store, selection, oplog, options, replay_options, survival);
  const Amounts always_dropped = bootstrap_drops(out.outcome.bootstrap);
  // A point where no loaded object's lease ends (since the previous point) holds the same objects
  // as the previous one: its validation is not run again.
  std::vector<bool> changes(points.size(), false);
  for (const auto& [tenant, by_point] : buckets) {
    for (std::size_t d = 0; d < by_point.size(); ++d) changes[d] = changes[d] || by_point[d].objects > 0;
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    PromoteSurvivalPoint point;
    fill_bootstrap(out.outcome.bootstrap, point);
    point.dropped = always_dropped;
    for (const auto& [tenant, by_point] : buckets) {
      for (std::size_t d = 0; d <= p; ++d) {
        if (by_point[d].objects > 0) point.dropped[tenant] += by_point[d];
      }
    }
    if (p > 0 && !changes[p]) {
      const PromoteSurvivalPoint& previous = out.points.back();
      point.starts_empty = previous.starts_empty;
      point.validation_failure = previous.validation_failure;
      point.kept = previous.kept;
    } else {
      const std::optional<std::uint64_t> cutoff =
          survival.lease_model == LeaseModel::upstream ? std::optional(points[p]) : std::nullopt;
      fill_kept(validate_promotion(store, cutoff), point);
    }
    out.points.push_back(std::move(point));
  }
  return out;
}

}  // namespace moonquota::restore
