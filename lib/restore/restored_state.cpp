#include "restore/restored_state.hpp"

#include <algorithm>
#include <iterator>

namespace moonquota::restore {

const char* charge_model_name(ChargeModel model) { return model == ChargeModel::live ? "live" : "restore"; }

const char* lease_model_name(LeaseModel model) { return model == LeaseModel::keep ? "keep" : "upstream"; }

std::optional<LeaseModel> parse_lease_model(std::string_view name) {
  if (name == "upstream") return LeaseModel::upstream;
  if (name == "keep") return LeaseModel::keep;
  return std::nullopt;
}

void TenantEvidence::record_object(std::uint64_t size, std::uint32_t processing_memory, std::uint32_t removed_memory) {
  if (processing_memory > 0) {
    in_flight_bytes += util::clamped_mul(size, processing_memory);
    ++in_flight_objects;
  }
  if (removed_memory > 0) {
    removed_bytes += util::clamped_mul(size, removed_memory);
    ++removed_objects;
  }
}

void TenantEvidence::merge(TenantEvidence&& o) {
  in_flight_bytes += o.in_flight_bytes;
  in_flight_objects += o.in_flight_objects;
  removed_bytes += o.removed_bytes;
  removed_objects += o.removed_objects;
  dropped_lease_expired_bytes += o.dropped_lease_expired_bytes;
  dropped_non_complete_bytes += o.dropped_non_complete_bytes;
  upserts.objects += o.upserts.objects;
  upserts.old_bytes += o.upserts.old_bytes;
  upserts.new_bytes += o.upserts.new_bytes;
  in_flight_unlisted += o.in_flight_unlisted;
  const std::size_t room = in_flight.size() < k_in_flight_listed ? k_in_flight_listed - in_flight.size() : 0;
  const std::size_t take = std::min(room, o.in_flight.size());
  in_flight.insert(in_flight.end(), std::make_move_iterator(o.in_flight.begin()),
                   std::make_move_iterator(o.in_flight.begin() + static_cast<std::ptrdiff_t>(take)));
  in_flight_unlisted += o.in_flight.size() - take;
}

}  // namespace moonquota::restore
