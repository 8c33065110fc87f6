#include "restore/oplog_applier.hpp"

namespace moonquota::restore {

namespace {

constexpr std::size_t k_max_findings = 1000;

}  // namespace

void OpLogApplier::note(model::Severity severity, const format::OpLogEntryView& entry, std::string message) {
  if (m_findings.size() >= k_max_findings) {
    ++m_dropped_findings;
    return;
  }
  m_findings.push_back({severity, "sequence " + std::to_string(entry.sequence), std::move(message)});
}

void OpLogApplier::apply_put_end(const format::OpLogEntryView& entry) {
  if (entry.payload.empty()) {
    ++m_counters.empty_placeholders;
    m_store.store_placeholder(entry.tenant_id, entry.key);
    return;
  }
  format::PayloadShape shape;
  // The writer's compact shape (no findings, no trailing bytes), decoded into the scratch and
  // copied over the stored object in place; anything else takes the general decoder below.
  if (format::decode_compact_metadata_payload(entry.payload, m_payload, shape)) {
    ++m_counters.compact_payloads;
    m_store.store_payload(entry.tenant_id, entry.key, m_payload);
    return;
  }
  auto payload = format::decode_metadata_payload(entry.payload, &shape);
  if (!payload.ok()) {
    ++m_counters.undecodable_placeholders;
    note(model::Severity::error, entry,
         "PUT_END of '" + std::string(entry.key) + "': " + payload.status().message() +
             "; the standby stores an empty placeholder record (size 0, no replicas)");
    m_store.store_placeholder(entry.tenant_id, entry.key);
    return;
  }
  ++(shape.form == format::PayloadForm::compact ? m_counters.compact_payloads : m_counters.literal_payloads);
  if (shape.trailing_bytes > 0) {
    ++m_counters.payloads_with_trailing_bytes;
    note(model::Severity::warning, entry, std::to_string(shape.trailing_bytes) + " trailing payload bytes ignored");
  }
  m_store.store_payload(entry.tenant_id, entry.key, std::move(payload).value());
}

void OpLogApplier::apply_segment(const format::OpLogEntryView& entry) {
  format::PayloadShape shape;
  if (entry.op_type == format::op_type::segment_unmount) {
    auto op = format::decode_segment_unmount(entry.payload, &shape);
    if (!op.ok()) {
      ++m_counters.segment_noops;
      note(model::Severity::error, entry, "SEGMENT_UNMOUNT: " + op.status().message() + "; the standby does nothing");
      return;
    }
    m_store.registry().erase(op->transport_endpoint);
  } else {
    auto op = format::decode_segment_mount(entry.payload, &shape);
    if (!op.ok()) {
      ++m_counters.segment_noops;
      note(model::Severity::error, entry,
           std::string(format::op_type::name(entry.op_type)) + ": " + op.status().message() +
               "; the standby does nothing");
      return;
    }
    if (entry.key != op->transport_endpoint && entry.key != op->segment_name) {
      note(model::Severity::warning, entry,
           "SEGMENT_MOUNT entry key '" + std::string(entry.key) +
               "' is neither the payload endpoint nor the segment name");
    }
    const std::string endpoint = op->transport_endpoint;
    m_store.registry()[endpoint] = StandbySegment{std::move(op->segment_name), endpoint, op->capacity,
                                                  op->is_memory_segment, std::move(op->file_path)};
  }
  ++(shape.form == format::PayloadForm::compact ? m_counters.compact_payloads : m_counters.literal_payloads);
  if (shape.trailing_bytes > 0) {
    ++m_counters.payloads_with_trailing_bytes;
    note(model::Severity::warning, entry, std::to_string(shape.trailing_bytes) + " trailing payload bytes ignored");
  }
}

ReplayTarget::Probe OpLogApplier::prefetch_slot(const format::OpLogEntryView& entry) const {
  switch (entry.op_type) {
    case format::op_type::put_end:
    case format::op_type::put_revoke:
    case format::op_type::remove: return m_store.prefetch_slot(entry.tenant_id, entry.key);
    default: return {};
  }
}

ApplyOutcome OpLogApplier::apply(const format::OpLogEntryView& entry, std::string& refusal) {
  if (entry.key.size() > format::k_max_oplog_key_bytes || entry.payload.size() > format::k_max_oplog_payload_bytes) {
    refusal = "key or payload over its limit";
    return ApplyOutcome::refused;
  }
  if (entry.sequence < m_expected) {
    ++m_counters.skipped_already_applied;
    return ApplyOutcome::skipped;
  }
  if (entry.sequence > m_expected) {
    refusal = "sequence " + std::to_string(entry.sequence) + " arrives while " + std::to_string(m_expected) +
              " is expected (a gap)";
    return ApplyOutcome::refused;
  }
  switch (entry.op_type) {
    case format::op_type::put_end: apply_put_end(entry); break;
    case format::op_type::put_revoke:
    case format::op_type::remove: m_store.erase(entry.tenant_id, entry.key); break;
    case format::op_type::segment_mount:
    case format::op_type::segment_update:
    case format::op_type::segment_unmount: apply_segment(entry); break;
    default:
      refusal = std::string("op type ") + std::to_string(entry.op_type) + " (" + format::op_type::name(entry.op_type) +
                ") is not applied by the standby";
      return ApplyOutcome::refused;
  }
  ++m_counters.applied_by_op[entry.op_type];
  m_expected = entry.sequence + 1;
  return ApplyOutcome::applied;
}

}  // namespace moonquota::restore
