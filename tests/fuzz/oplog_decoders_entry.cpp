#include "fuzz/oplog_decoders_entry.hpp"

#include <cstdlib>
#include <string_view>

#include "format/oplog_batch.hpp"
#include "format/oplog_payloads.hpp"
#include "fuzz/entry_checks.hpp"

namespace moonquota::fuzz {

namespace {

void batch(std::string_view in) {
  model::Findings findings;
  auto b = format::decode_batch_record(in, "fuzz", findings);
  check_error(b);
  // The view decoder: the same status, findings and entries.
  format::BatchView view;
  model::Findings view_findings;
  const util::Status status = format::decode_batch_view(in, "fuzz", view_findings, view);
  check(status.ok() == b.ok() && view_findings.size() == findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) check(view_findings[i].message == findings[i].message);
  if (!b.ok()) {
    check(status.message() == b.status().message());
    return;
  }
  check(view.batch_id == b->batch_id && view.first_seq == b->first_seq && view.last_seq == b->last_seq &&
        view.entries.size() == b->entries.size());
  for (std::size_t i = 0; i < b->entries.size(); ++i) {
    const auto& v = view.entries[i];
    const auto& r = b->entries[i];
    check(v.sequence == r.sequence && v.op_type == r.op_type && v.tenant_id == r.tenant_id && v.key == r.key &&
          v.payload == r.payload);
  }
  check(b->batch_id != 0 && !b->entries.empty() && b->last_seq - b->first_seq + 1 == b->entries.size());
  const std::string again = format::encode_batch_record(b->batch_id, b->first_seq, b->entries);
  model::Findings none;
  auto round = format::decode_batch_record(again, "fuzz", none);
  if (!round.ok()) {
    // Only non-UTF-8 keys change (lossily, possibly past the key limit) when re-serialized.
    bool high = false;
    for (const auto& e : b->entries) {
      for (char c : e.key + e.tenant_id) high = high || static_cast<unsigned char>(c) >= 0x80;
    }
    check(high);
    return;
  }
  check(round->entries.size() == b->entries.size());
  for (std::size_t i = 0; i < b->entries.size(); ++i) {
    check(round->entries[i].op_type == b->entries[i].op_type && round->entries[i].payload == b->entries[i].payload);
  }
}

void prefix(std::string_view in) {
  model::Findings findings;
  auto p = format::decode_durable_prefix(in, findings);
  check_error(p);
  if (!p.ok()) return;
  model::Findings none;
  auto round = format::decode_durable_prefix(format::encode_durable_prefix(*p), none);
  check(round.ok() && *round == *p && none.empty());
}

void put_end(std::string_view in) {
  format::PayloadShape shape;
  auto p = format::decode_metadata_payload(in, &shape);
  check_error(p);
  // The compact fast path: whatever it accepts, the general decoder accepts with the same value
  // and shape. `reused` keeps the previous input's value (stale fields and capacity).
  static format::MetadataPayload reused;
  format::PayloadShape fast_shape;
  if (format::decode_compact_metadata_payload(in, reused, fast_shape)) {
    check(p.ok() && *p == reused && shape.form == fast_shape.form && shape.trailing_bytes == fast_shape.trailing_bytes);
  }
  if (!p.ok()) return;
  for (auto form : {format::PayloadForm::compact, format::PayloadForm::type_literal}) {
    auto round = format::decode_metadata_payload(format::encode_metadata_payload(*p, form));
    // Absent compatible fields are written as "not present", so the value survives exactly.
    check(round.ok() && *round == *p);
  }
}

void segment(std::string_view in, bool unmount) {
  if (unmount) {
    auto op = format::decode_segment_unmount(in);
    check_error(op);
    if (!op.ok()) return;
    auto round = format::decode_segment_unmount(format::encode_segment_unmount(*op, format::PayloadForm::compact));
    check(round.ok() && round->transport_endpoint == op->transport_endpoint);
    return;
  }
  auto op = format::decode_segment_mount(in);
  check_error(op);
  if (!op.ok()) return;
  auto round = format::decode_segment_mount(format::encode_segment_mount(*op, format::PayloadForm::type_literal));
  check(round.ok() && *round == *op);
}

}  // namespace

int run_oplog_decoders(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (selector % 4) {
    case 0: batch(in); break;
    case 1: prefix(in); break;
    case 2: put_end(in); break;
    default: segment(in, (selector & 0x80) != 0); break;
  }
  return 0;
}

}  // namespace moonquota::fuzz
