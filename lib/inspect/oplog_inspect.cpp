#include "inspect/oplog_inspect.hpp"

#include <functional>
#include <utility>

#include "restore/oplog_replay.hpp"
#include "source/oplog_keys.hpp"

namespace moonquota::inspect {

namespace {

using model::Severity;

bool is_leniency(const model::Finding& f) { return f.rule == format::k_rule_jsoncpp_leniency; }

// Findings about the entries of one decoded batch (payload contents, op types).
void audit_entries(const format::BatchRecord& batch, const std::string& key, OpLogAudit& out, std::uint64_t forms[2]) {
  if (batch.batch_id == 1 && batch.entries.size() > 1) {
    out.findings.push_back({Severity::warning, key,
                            "batch 1 holds " + std::to_string(batch.entries.size()) +
                                " entries: a real writer's first batch after start holds exactly one"});
  }
  for (std::uint64_t index = 0; index < batch.entries.size(); ++index) {
    const format::OpLogEntry& e = batch.entries[index];
    const std::string where = key + " sequence " + std::to_string(e.sequence);
    auto warn = [&](std::string message) {
      out.findings.push_back(
          {.severity = Severity::warning, .location = where, .message = std::move(message), .entry = index});
    };
    format::PayloadShape shape;
    switch (e.op_type) {
      case format::op_type::lease_renew: warn("LEASE_RENEW entry: the standby's applier stops here (fatal)"); break;
      case format::op_type::put_revoke: warn("PUT_REVOKE entry (the Primary never emits it at this commit)"); break;
      case format::op_type::put_end: {
        if (e.payload.empty()) break;
        auto p = format::decode_metadata_payload(e.payload, &shape);
        if (!p.ok()) {
          warn(p.status().message() + ": the standby stores an empty placeholder");
          break;
        }
        ++forms[shape.form == format::PayloadForm::compact ? 0 : 1];
        for (const auto& r : p->replicas) {
          const bool buffer = r.variant <= format::payload_variant::nof;
          const std::uint64_t replica_size = buffer ? r.buffer_size : r.object_size;
          if ((buffer || r.variant == format::payload_variant::disk ||
               r.variant == format::payload_variant::local_disk) &&
              replica_size != p->size) {
            warn(std::string(format::payload_variant::name(r.variant)) + " replica " + std::to_string(r.id) + " size " +
                 std::to_string(replica_size) + " differs from the object size " + std::to_string(p->size) +
                 " (promotion rejects it)");
          }
        }
        break;
      }
      case format::op_type::segment_mount:
      case format::op_type::segment_update: {
        auto op = format::decode_segment_mount(e.payload, &shape);
        if (!op.ok()) {
          warn(op.status().message() + ": the standby does nothing");
          break;
        }
        ++forms[shape.form == format::PayloadForm::compact ? 0 : 1];
        if (e.key != op->transport_endpoint && e.key != op->segment_name) {
          warn("SEGMENT_MOUNT key is neither the payload endpoint nor the segment name");
        }
        break;
      }
      case format::op_type::segment_unmount: {
        auto op = format::decode_segment_unmount(e.payload, &shape);
        if (!op.ok()) {
          warn(op.status().message() + ": the standby does nothing");
          break;
        }
        ++forms[shape.form == format::PayloadForm::compact ? 0 : 1];
        break;
      }
      default: break;
    }
    if (shape.trailing_bytes > 0) warn(std::to_string(shape.trailing_bytes) + " trailing payload bytes");
  }
}

// The form of an entry's payload when it decodes (as dump shows it); nothing for an entry
// without a payload or one that does not decode. `scratch`: the compact PUT_END fast path's.
std::optional<format::PayloadForm> payload_form(const format::OpLogEntryView& e, format::MetadataPayload& scratch) {
  format::PayloadShape shape;
  bool decoded = false;
  switch (e.op_type) {
    case format::op_type::put_end:
      decoded = !e.payload.empty() && (format::decode_compact_metadata_payload(e.payload, scratch, shape) ||
                                       format::decode_metadata_payload(e.payload, &shape).ok());
      break;
    case format::op_type::segment_mount:
    case format::op_type::segment_update: decoded = format::decode_segment_mount(e.payload, &shape).ok(); break;
    case format::op_type::segment_unmount: decoded = format::decode_segment_unmount(e.payload, &shape).ok(); break;
    default: break;
  }
  if (!decoded) return std::nullopt;
  return shape.form;
}

}  // namespace

OpLogAudit audit_oplog(const source::OpLogKeySet& keys) {
  OpLogAudit out;
  out.root = keys.root;
  out.findings = keys.findings;
  const source::KeyValue* prefix_kv = nullptr;
  std::vector<std::pair<std::uint64_t, const source::KeyValue*>> batch_keys;
  bool legacy = false;
  for (const auto& kv : keys.kvs) {
    const std::string suffix = kv.key.substr(keys.root.size());
    const auto cls = source::classify_oplog_key(suffix);
    ++out.key_classes[source::oplog_key_class_name(cls.kind)];
    switch (cls.kind) {
      case source::OpLogKeyClass::durable_prefix: prefix_kv = &kv; break;
      case source::OpLogKeyClass::batch: batch_keys.emplace_back(cls.number, &kv); break;
      case source::OpLogKeyClass::legacy_entry:
        out.legacy_max_seq = std::max(out.legacy_max_seq, cls.number);
        legacy = true;
        break;
      case source::OpLogKeyClass::legacy_latest:
      case source::OpLogKeyClass::legacy_snapshot: legacy = true; break;
      case source::OpLogKeyClass::malformed_batch:
        out.findings.push_back(
            {Severity::error, kv.key, "batch key without exactly 20 digits (skipped by the reader)"});
        break;
      case source::OpLogKeyClass::malformed_legacy:
        out.findings.push_back({Severity::error, kv.key, "20-character key that is not numeric"});
        break;
      case source::OpLogKeyClass::unknown: out.findings.push_back({Severity::warning, kv.key, "unknown key"}); break;
      default: break;
    }
  }
  if (legacy) {
    out.findings.push_back({Severity::error, keys.root,
                            "legacy per-entry keys (latest, 20-digit children or snapshot/...) exist: a new "
                            "Primary's writer refuses to start (INCOMPLETE_OPLOG_CATCH_UP)"});
  }
  if (prefix_kv == nullptr) {
    if (!batch_keys.empty()) {
      for (const auto& [id, kv] : batch_keys) out.orphan_batches.push_back(id);
      out.findings.push_back({Severity::error, keys.root + "durable_prefix",
                              "missing while " + std::to_string(batch_keys.size()) +
                                  " batches exist: all are orphans; a new Primary's writer refuses to start"});
    }
  } else {
    auto p = format::decode_durable_prefix(prefix_kv->value, out.findings);
    if (!p.ok()) {
      out.findings.push_back({Severity::error, prefix_kv->key, p.status().message()});
    } else {
      out.prefix = *p;
      if ((p->batch_id == 0) != (p->last_seq == 0)) {
        out.findings.push_back(
            {Severity::error, prefix_kv->key, "batch_id and last_seq must both be 0 or both non-zero"});
      }
    }
  }
  std::uint64_t forms[2] = {0, 0};
  std::uint64_t expected_id = 1;
  std::uint64_t expected_seq = out.legacy_max_seq + 1;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> last_walked;
  for (const auto& [id, kv] : batch_keys) {
    auto batch = format::decode_batch_record(kv->value, kv->key, out.findings);
    if (!batch.ok()) {
      out.findings.push_back({Severity::error, kv->key, batch.status().message()});
      continue;
    }
    if (batch->batch_id != id) {
      out.findings.push_back({Severity::error, kv->key,
                              "rule 13: record batch_id " + std::to_string(batch->batch_id) + " differs from its key"});
      continue;
    }
    ++out.batch_count;
    out.entry_count += batch->entries.size();
    audit_entries(*batch, kv->key, out, forms);
    if (out.prefix && id > out.prefix->batch_id) {
      out.orphan_batches.push_back(id);
      out.findings.push_back({Severity::error, kv->key, "orphan: batch above the durable prefix (never applied)"});
      continue;
    }
    if (id != expected_id) {
      out.findings.push_back(
          {Severity::error, kv->key,
           "batch id gap: expected batch " + std::to_string(expected_id) + ", found " + std::to_string(id)});
    }
    if (batch->first_seq != expected_seq) {
      out.findings.push_back({Severity::error, kv->key,
                              "sequence gap: expected first_seq " + std::to_string(expected_seq) + ", found " +
                                  std::to_string(batch->first_seq)});
    }
    expected_id = id + 1;
    expected_seq = batch->last_seq + 1;
    last_walked = {{id, batch->last_seq}};
  }
  if (out.prefix && out.prefix->batch_id > 0) {
    const auto walked = last_walked.value_or(std::pair<std::uint64_t, std::uint64_t>{0, 0});
    if (walked.first != out.prefix->batch_id || walked.second != out.prefix->last_seq) {
      out.findings.push_back({Severity::error, keys.root + "durable_prefix",
                              "prefix {" + std::to_string(out.prefix->batch_id) + ", " +
                                  std::to_string(out.prefix->last_seq) + "} does not match the walked history {" +
                                  std::to_string(walked.first) + ", " + std::to_string(walked.second) +
                                  "}: a new Primary's writer refuses to start"});
    }
  }
  if (forms[0] > 0 && forms[1] > 0) {
    out.findings.push_back({Severity::info, keys.root,
                            "payloads in both the compact and the type-literal form: Primaries of different build "
                            "types wrote this log"});
  }
  if (keys.kvs.empty() && !keys.other_clusters.empty()) {
    out.other_clusters = keys.other_clusters;
    std::string ids;
    for (const auto& id : keys.other_clusters) ids += (ids.empty() ? "" : ", ") + id;
    out.findings.push_back({Severity::error, keys.root,
                            "no key under this cluster id, but the OpLog holds keys of cluster id(s) " + ids +
                                " (pick one with --cluster-id)"});
  }
  for (const auto& f : out.findings) {
    if (f.severity == Severity::error || is_leniency(f)) out.ok = false;
  }
  return out;
}

util::Result<OpLogSummary> summarize_oplog(const source::OpLogKeySet& keys) {
  OpLogSummary out;
  model::Findings ignored;
  std::string scratch;
  format::BatchView batch;          // views into `value` and itself: used before either is reused
  format::MetadataPayload payload;  // payload_form's scratch
  for (std::size_t i = 0; i < keys.kvs.size(); ++i) {
    const source::KeyValue& kv = keys.kvs[i];
    const auto cls = source::classify_oplog_key(std::string_view(kv.key).substr(keys.root.size()));
    if (cls.kind != source::OpLogKeyClass::durable_prefix && cls.kind != source::OpLogKeyClass::batch) continue;
    MQ_ASSIGN_OR_RETURN(std::string_view value, source::oplog_value(keys, i, scratch));
    if (cls.kind == source::OpLogKeyClass::durable_prefix) {
      auto p = format::decode_durable_prefix(value, ignored);
      if (p.ok()) out.prefix = *p;
    }
    if (cls.kind != source::OpLogKeyClass::batch) continue;
    if (!format::decode_batch_view(value, kv.key, ignored, batch).ok()) {
      ++out.undecodable_batches;
      continue;
    }
    ++out.batches;
    if (out.first_seq == 0 || batch.first_seq < out.first_seq) out.first_seq = batch.first_seq;
    out.last_seq = std::max(out.last_seq, batch.last_seq);
    for (const auto& e : batch.entries) {
      ++out.entries;
      ++out.entries_by_op[format::op_type::name(e.op_type)];
      ++out.entries_by_tenant[std::string(e.tenant_id)];
      if (auto form = payload_form(e, payload))
        ++(*form == format::PayloadForm::compact ? out.compact_payloads : out.literal_payloads);
    }
  }
  restore::StandbyStore store;
  auto replay = restore::replay_oplog(keys, store, 0, {});
  if (!replay.ok()) {
    out.replay_error = replay.status().message();  // the state below is not validated
    return out;
  }
  out.replay_applied_seq = replay->applied_seq;
  out.state = restore::validate_promotion(store);
  out.promotion_checked = true;
  return out;
}

util::Status dump_oplog(const source::OpLogKeySet& keys, const DumpFilter& filter,
                        const std::function<void(const DumpedEntry&)>& sink) {
  model::Findings ignored;
  std::string scratch;
  for (std::size_t i = 0; i < keys.kvs.size(); ++i) {
    const auto& kv = keys.kvs[i];
    const auto cls = source::classify_oplog_key(std::string_view(kv.key).substr(keys.root.size()));
    if (cls.kind != source::OpLogKeyClass::batch) continue;
    if ((filter.from_batch && cls.number < *filter.from_batch) || (filter.to_batch && cls.number > *filter.to_batch)) {
      continue;
    }
    // A held value, or (an export read without its values) the batch's line read again.
    MQ_ASSIGN_OR_RETURN(const std::string_view value, source::oplog_value(keys, i, scratch));
    auto batch = format::decode_batch_record(value, kv.key, ignored);
    if (!batch.ok()) return batch.status();
    for (auto& e : batch->entries) {
      if (filter.tenant && e.tenant_id != *filter.tenant) continue;
      if (filter.key_prefix && e.key.rfind(*filter.key_prefix, 0) != 0) continue;
      DumpedEntry d;
      d.batch_id = batch->batch_id;
      format::PayloadShape shape;
      util::Status s;
      if (e.op_type == format::op_type::put_end && !e.payload.empty()) {
        auto p = format::decode_metadata_payload(e.payload, &shape);
        if (p.ok())
          d.put_end = std::move(p).value();
        else
          s = p.status();
      } else if (e.op_type == format::op_type::segment_mount || e.op_type == format::op_type::segment_update) {
        auto p = format::decode_segment_mount(e.payload, &shape);
        if (p.ok())
          d.segment = std::move(p).value();
        else
          s = p.status();
      } else if (e.op_type == format::op_type::segment_unmount) {
        auto p = format::decode_segment_unmount(e.payload, &shape);
        if (p.ok())
          d.unmount = std::move(p).value();
        else
          s = p.status();
      }
      if (d.put_end || d.segment || d.unmount) d.form = shape.form;
      if (!s.ok()) d.payload_error = s.message();
      d.entry = std::move(e);
      sink(d);
    }
  }
  return {};
}

}  // namespace moonquota::inspect
