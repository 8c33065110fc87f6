#include "format/shard_decoder.hpp"

#include <string>
#include <utility>

#include "model/tenant_id.hpp"

namespace moonquota::format {

namespace {

// Consecutive entries of one tenant get the same view (the first one's), so that visitors
// comparing tenants find equal pointers before comparing bytes.
inline void share_tenant(std::string_view& tenant, std::string_view& last) {
  if (same_bytes(tenant, last)) {
    tenant = last;
  } else {
    last = tenant;
  }
}

// A finding about entry `entry` of `shard`: the location text and the same in fields.
model::Finding entry_finding(model::Severity severity, std::uint32_t shard, std::uint64_t entry, std::string message,
                             std::string rule = {}) {
  return {.severity = severity,
          .location = "shard " + std::to_string(shard) + " entry " + std::to_string(entry),
          .message = std::move(message),
          .rule = std::move(rule),
          .shard = shard,
          .entry = entry};
}

model::Finding shard_finding(model::Severity severity, std::uint32_t shard, std::string message) {
  return {.severity = severity,
          .location = "shard " + std::to_string(shard),
          .message = std::move(message),
          .shard = shard};
}

util::Status reject(std::uint32_t shard, const std::string& message) {
  return util::Status::corruption("shard " + std::to_string(shard) + ": " + message +
                                  " (offsets are inside the decompressed shard)");
}

// Finds the "metadata" array; returns its length with the reader at its first element.
util::Result<std::uint32_t> open_entry_array(ValueReader& values, std::uint32_t shard, std::uint32_t& pairs_after) {
  std::uint32_t pairs = 0;
  if (!values.map(pairs, "shard value")) return reject(shard, values.error());
  for (std::uint32_t i = 0; i < pairs; ++i) {
    MpHeader h;
    std::string_view key;
    if (!values.header(h)) return reject(shard, values.error());
    if (h.type == MpType::str || h.type == MpType::bin) {
      if (!values.reader().read_payload(h.length, key)) return reject(shard, values.error());
      if (key == "metadata") {
        std::uint32_t n = 0;
        if (!values.array(n, "\"metadata\"")) return reject(shard, values.error());
        pairs_after = pairs - i - 1;
        return n;
      }
    } else if (!values.reader().skip_after_header(h)) {
      return reject(shard, values.error());
    }
    if (!values.skip()) return reject(shard, values.error());
  }
  return reject(shard, "shard map has no \"metadata\" array");
}

}  // namespace

util::Status decode_shard(std::string_view raw, std::uint32_t shard_index, const SegmentTable& segments,
                          ObjectView& scratch, ShardVisitor& visitor, model::Findings& findings, DecodePath path,
                          SegmentSpeculation* speculation) {
  MsgpackReader reader(raw);
  ValueReader values(reader);
  std::uint32_t pairs_after = 0;
  auto count = open_entry_array(values, shard_index, pairs_after);
  if (!count.ok()) return count.status();
  ShardEntry entry;
  entry.shard_index = shard_index;
  entry.object = &scratch;
  ObjectDecodeResult result;
  entry.result = &result;
  CanonicalEntryDecoder canonical(segments, speculation);
  std::string_view last_tenant;
  const bool try_canonical = path == DecodePath::canonical_first;
  for (std::uint64_t i = 0; i < *count; ++i) {
    entry.entry_index = i;
    entry.offset = reader.position();
    std::size_t end = 0;
    if (try_canonical && canonical.decode(raw, entry.offset, scratch, end)) {
      reader.rewind_to(end);
      entry.end_offset = end;
      share_tenant(scratch.tenant_id, last_tenant);
      result.outcome = DecodeOutcome::decoded;
      result.reason.clear();
      result.ambiguous = false;
      result.nof_replica = false;
      visitor.on_entry(entry);
      continue;
    }
    if (speculation != nullptr) {  // the general decoder needs the real segment table
      speculation->needs_table = true;
      return {};
    }
    MpHeader h;
    if (!values.header(h)) return reject(shard_index, values.error());
    if (h.type != MpType::array || (h.length != 2 && h.length != 3)) {
      return reject(shard_index, "entry " + std::to_string(i) + " at byte offset " + std::to_string(h.offset) +
                                     " is not an array of 2 or 3 elements");
    }
    scratch.legacy_entry = h.length == 2;
    std::string_view tenant;
    if (h.length == 3 && !values.string(tenant, "entry tenant")) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + values.error());
    }
    scratch.tenant_id = tenant.empty() ? model::k_default_tenant : tenant;
    share_tenant(scratch.tenant_id, last_tenant);
    if (!values.string(scratch.key, "entry key")) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + values.error());
    }
    result = decode_object(values, segments, scratch);
    if (result.outcome == DecodeOutcome::rejected) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + result.reason);
    }
    if (result.outcome == DecodeOutcome::skipped) {
      findings.push_back(entry_finding(model::Severity::error, shard_index, i,
                                       "object skipped (tenant '" + std::string(scratch.tenant_id) + "', key '" +
                                           std::string(scratch.key) + "'): " + result.reason,
                                       k_rule_skipped_object));
    } else if (scratch.layout_version < 4) {
      findings.push_back(entry_finding(model::Severity::info, shard_index, i,
                                       "ObjectMetadata layout v" + std::to_string(scratch.layout_version)));
    }
    if (scratch.legacy_entry) {
      findings.push_back(entry_finding(model::Severity::info, shard_index, i, "legacy 2-element entry (default tenant)",
                                       k_rule_legacy_entry));
    }
    if (result.nof_replica) {
      findings.push_back(entry_finding(model::Severity::error, shard_index, i, "unsupported snapshot: NOF_SSD replica",
                                       k_rule_nof_replica));
    }
    if (result.ambiguous) {
      findings.push_back(entry_finding(model::Severity::warning, shard_index, i,
                                       "skipped (" + result.reason +
                                           ") although a later value would make the master reject the snapshot; "
                                           "the order of these checks is not verified against a Mooncake build"));
    }
    entry.end_offset = reader.position();
    visitor.on_entry(entry);
  }
  // Remaining pairs of the shard map are parsed by msgpack-c too: they must be well-formed.
  for (std::uint32_t p = 0; p < pairs_after; ++p) {
    if (!values.skip() || !values.skip()) return reject(shard_index, values.error());
  }
  if (pairs_after > 0) {
    findings.push_back(shard_finding(model::Severity::info, shard_index,
                                     std::to_string(pairs_after) + " extra keys after \"metadata\" ignored"));
  }
  if (!reader.at_end()) {
    findings.push_back(
        shard_finding(model::Severity::warning, shard_index,
                      std::to_string(reader.remaining()) + " trailing bytes after the shard map ignored"));
  }
  return {};
}

}  // namespace moonquota::format
