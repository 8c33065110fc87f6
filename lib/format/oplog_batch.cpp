// jsoncpp is used on purpose: the master writes and re-serializes with it, so the checksum input
// (and its escaping of every byte) is whatever jsoncpp 1.9.5 produces, not an imitation.
#include "format/oplog_batch.hpp"

#include <json/json.h>
#include <xxhash.h>

#include <memory>
#include <sstream>

#include "format/oplog_base64.hpp"
#include "format/oplog_canonical.hpp"
#include "model/tenant_id.hpp"

namespace moonquota::format {

namespace {

using util::Status;

// Mooncake's writer: StreamWriterBuilder with indentation "" and otherwise default settings.
std::string canonical_json(const Json::Value& value) {
  thread_local std::unique_ptr<Json::StreamWriter> writer = [] {
    Json::StreamWriterBuilder builder;
    builder["indentation"] = "";
    return std::unique_ptr<Json::StreamWriter>(builder.newStreamWriter());
  }();
  std::ostringstream out;
  writer->write(value, &out);
  return std::move(out).str();
}

// The reference reader: CharReaderBuilder defaults (comments, trailing commas, BOM, trailing text).
bool parse_default(std::string_view text, Json::Value& root, std::string& errors) {
  thread_local std::unique_ptr<Json::CharReader> reader =
      std::unique_ptr<Json::CharReader>(Json::CharReaderBuilder().newCharReader());
  return reader->parse(text.data(), text.data() + text.size(), &root, &errors);
}

// Strict parse: succeeds only when none of the leniencies was needed.
bool parse_strict(std::string_view text, std::string& errors) {
  Json::CharReaderBuilder builder;
  Json::CharReaderBuilder::strictMode(&builder.settings_);
  std::unique_ptr<Json::CharReader> reader(builder.newCharReader());
  Json::Value ignored;
  return reader->parse(text.data(), text.data() + text.size(), &ignored, &errors);
}

std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

bool has_high_bytes(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

// Explains why accepted text differs from its canonical serialization.
void report_non_canonical(std::string_view text, const std::string& where, bool integral_real,
                          model::Findings& findings) {
  std::string strict_errors;
  if (!parse_strict(text, strict_errors)) {
    findings.push_back({.severity = model::Severity::warning,
                        .location = where,
                        .message = "accepted only through jsoncpp leniency (comments, trailing commas, BOM, duplicate "
                                   "keys or trailing text): " +
                                   one_line(strict_errors),
                        .rule = k_rule_jsoncpp_leniency});
  }
  if (has_high_bytes(text)) {
    findings.push_back({model::Severity::warning, where,
                        "raw bytes >= 0x80 in the stored text (never written; re-serialization is lossy)"});
  }
  if (integral_real) {
    findings.push_back({model::Severity::warning, where, "a number is written as a JSON real with an integral value"});
  }
  findings.push_back(
      {model::Severity::info, where, "stored text is not byte-identical to its canonical serialization"});
}

std::string entry_where(const std::string& key, std::size_t index, std::uint64_t first_seq) {
  return key + " entry " + std::to_string(index) + " (sequence " + std::to_string(first_seq + index) + ")";
}

Status reject(int rule, const std::string& where, const std::string& message) {
  return Status::corruption("rule " + std::to_string(rule) + ": " + where + ": " + message);
}

bool is_real(const Json::Value& v) { return v.type() == Json::realValue; }

}  // namespace

std::uint32_t xxh32(std::string_view bytes) { return XXH32(bytes.data(), bytes.size(), 0); }

std::string encode_durable_prefix(const DurablePrefix& prefix) {
  return "{\"batch_id\":" + std::to_string(prefix.batch_id) + ",\"last_seq\":" + std::to_string(prefix.last_seq) +
         ",\"schema_version\":1}";
}

namespace {

// jsoncpp reports some hostile input (nesting deeper than its stack limit of 1000) by throwing,
// not through the parse result: the decoders turn any exception of it into corruption here, at
// their boundary, so no jsoncpp call escapes to the caller.
std::string json_exception_text(const std::exception& e) { return "not JSON: " + one_line(e.what()); }

util::Result<DurablePrefix> decode_durable_prefix_unguarded(std::string_view text, model::Findings& findings) {
  Json::Value root;
  std::string errors;
  if (!parse_default(text, root, errors)) return Status::corruption("durable_prefix: not JSON: " + one_line(errors));
  if (!root.isObject()) return Status::corruption("durable_prefix: not a JSON object");
  for (const char* member : {"schema_version", "batch_id", "last_seq"}) {
    if (!root.isMember(member))
      return Status::corruption(std::string("durable_prefix: member \"") + member + "\" missing");
  }
  const Json::Value& schema = root["schema_version"];
  if (!schema.isUInt()) return Status::corruption("durable_prefix: schema_version does not fit uint32");
  if (schema.asUInt() != 1) {
    return Status::corruption("durable_prefix: schema_version " + std::to_string(schema.asUInt()) + " is not 1");
  }
  if (!root["batch_id"].isUInt64() || !root["last_seq"].isUInt64()) {
    return Status::corruption("durable_prefix: batch_id or last_seq does not fit uint64");
  }
  DurablePrefix prefix{root["batch_id"].asUInt64(), root["last_seq"].asUInt64()};
  if (text != encode_durable_prefix(prefix)) {
    const bool real = is_real(schema) || is_real(root["batch_id"]) || is_real(root["last_seq"]);
    report_non_canonical(text, "durable_prefix", real, findings);
    findings.push_back({model::Severity::warning, "durable_prefix",
                        "the text differs from the canonical prefix: the writer's compare-and-swap needs its "
                        "one-time raw-text retry"});
  }
  return prefix;
}

util::Result<BatchRecord> decode_batch_record_unguarded(std::string_view text, const std::string& key,
                                                        model::Findings& findings) {
  Json::Value root;
  std::string errors;
  if (!parse_default(text, root, errors)) return reject(1, key, "not JSON: " + one_line(errors));
  if (!root.isArray() || root.size() != 6) return reject(2, key, "the root is not an array of exactly 6 elements");
  if (!root[0].isUInt() || !root[1].isUInt64() || !root[2].isUInt64() || !root[3].isUInt64() || !root[4].isArray() ||
      !root[5].isUInt()) {
    return reject(3, key, "wrong element types (expected [u32, u64, u64, u64, array, u32])");
  }
  if (root[0].asUInt() != 1) return reject(4, key, "schema_version " + std::to_string(root[0].asUInt()) + " is not 1");
  BatchRecord batch;
  batch.batch_id = root[1].asUInt64();
  batch.first_seq = root[2].asUInt64();
  batch.last_seq = root[3].asUInt64();
  const Json::Value& entries = root[4];
  const std::uint64_t count = entries.size();
  if (count == 0) return reject(5, key, "no entries");
  if (batch.first_seq == 0) return reject(5, key, "first_seq is 0");
  if (batch.last_seq < batch.first_seq) {
    return reject(5, key,
                  "last_seq " + std::to_string(batch.last_seq) + " < first_seq " + std::to_string(batch.first_seq));
  }
  if (batch.last_seq - batch.first_seq != count - 1) {
    return reject(5, key,
                  "sequences " + std::to_string(batch.first_seq) + ".." + std::to_string(batch.last_seq) +
                      " do not match " + std::to_string(count) + " entries");
  }
  bool integral_real = false;
  for (int i : {0, 1, 2, 3, 5}) integral_real = integral_real || is_real(root[i]);
  batch.checksum = root[5].asUInt();
  root.resize(5);  // the checksum input is the first five elements, re-serialized
  std::string input = canonical_json(root);
  const std::uint32_t computed = xxh32(input);
  if (computed != batch.checksum) {
    return reject(6, key,
                  "checksum mismatch: stored " + std::to_string(batch.checksum) + ", computed " +
                      std::to_string(computed) + " over the canonical re-serialization");
  }
  batch.entries.resize(count);
  for (Json::ArrayIndex i = 0; i < entries.size(); ++i) {
    const Json::Value& e = entries[i];
    OpLogEntry& out = batch.entries[i];
    out.sequence = batch.first_seq + i;
    if (!e.isArray() || e.size() != 4 || !e[0].isUInt() || !e[1].isString() || !e[2].isString() || !e[3].isString()) {
      return reject(7, entry_where(key, i, batch.first_seq), "not an array of [u32, string, string, string]");
    }
    integral_real = integral_real || is_real(e[0]);
    out.op_type = e[0].asUInt();
    if (out.op_type == 0 || out.op_type >= op_type::max) {
      return reject(8, entry_where(key, i, batch.first_seq), "op_type " + std::to_string(out.op_type) + " is not 1-7");
    }
    const char* begin = nullptr;
    const char* end = nullptr;
    e[3].getString(&begin, &end);
    auto payload = base64_decode_canonical(std::string_view(begin, static_cast<std::size_t>(end - begin)));
    if (!payload) return reject(9, entry_where(key, i, batch.first_seq), "payload is not canonical base64");
    e[1].getString(&begin, &end);
    std::string_view tenant(begin, static_cast<std::size_t>(end - begin));
    if (tenant.empty()) {
      findings.push_back({.severity = model::Severity::info,
                          .location = entry_where(key, i, batch.first_seq),
                          .message = "empty tenant id (normalised to \"default\"; the writer never produces it)",
                          .entry = i});
    }
    out.tenant_id = model::normalize_tenant_id(tenant);
    if (!model::is_valid_tenant_id(out.tenant_id)) {
      return reject(10, entry_where(key, i, batch.first_seq), "invalid tenant id");
    }
    e[2].getString(&begin, &end);
    out.key.assign(begin, end);
    if (out.key.size() > k_max_oplog_key_bytes) {
      return reject(11, entry_where(key, i, batch.first_seq),
                    "object key of " + std::to_string(out.key.size()) + " bytes exceeds 4096");
    }
    if (payload->size() > k_max_oplog_payload_bytes) {
      return reject(11, entry_where(key, i, batch.first_seq),
                    "decoded payload of " + std::to_string(payload->size()) + " bytes exceeds 10485760");
    }
    out.payload = std::move(*payload);
  }
  if (batch.batch_id == 0) return reject(12, key, "batch_id is 0");
  // Canonical record = checksum input without its final ']' + "," + checksum + "]".
  input.pop_back();
  input += "," + std::to_string(batch.checksum) + "]";
  if (text != input) report_non_canonical(text, key, integral_real, findings);
  return batch;
}

// The writer's own text (oplog_canonical.hpp): decoded without jsoncpp. Succeeds only for a record
// the jsoncpp path accepts with exactly these entries and no finding but "empty tenant id"; any
// other input returns false with `findings` untouched, and the caller takes the jsoncpp path,
// which produces the rejection or the findings.
bool decode_canonical_batch(std::string_view text, const std::string& key, model::Findings& findings,
                            BatchView& batch) {
  thread_local CanonicalBatchView view;
  if (!scan_canonical_batch(text, view)) return false;
  const std::uint64_t count = view.entries.size();
  if (view.schema_version != 1 || view.checksum > UINT32_MAX || view.batch_id == 0 || view.first_seq == 0 ||
      view.last_seq < view.first_seq || view.last_seq - view.first_seq != count - 1) {
    return false;
  }
  thread_local std::unique_ptr<XXH32_state_t, decltype(&XXH32_freeState)> state(XXH32_createState(), &XXH32_freeState);
  XXH32_reset(state.get(), 0);
  XXH32_update(state.get(), text.data(), view.checksum_input_end);
  XXH32_update(state.get(), "]", 1);
  if (XXH32_digest(state.get()) != view.checksum) return false;
  std::size_t empty_tenants = 0;
  std::size_t payload_room = 0;
  for (const auto& e : view.entries) {
    if (e.op_type == 0 || e.op_type >= op_type::max || e.key.size() > k_max_oplog_key_bytes) return false;
    // base64 grows 3 bytes to 4: a longer text cannot decode within the limit.
    if (e.payload_base64.size() / 4 * 3 > k_max_oplog_payload_bytes + 2) return false;
    payload_room += e.payload_base64.size() / 4 * 3;
    if (e.tenant_id.empty()) {
      ++empty_tenants;
    } else if (!model::is_valid_tenant_id(e.tenant_id)) {
      return false;
    }
  }
  // Sized once: the views below point into it.
  batch.payloads.resize(payload_room);
  batch.entries.resize(count);
  char* dst = batch.payloads.data();
  for (std::size_t i = 0; i < count; ++i) {
    const auto& e = view.entries[i];
    const std::size_t n = base64_decode_canonical_to(e.payload_base64, dst);
    if (n == k_not_base64 || n > k_max_oplog_payload_bytes) return false;
    OpLogEntryView& out = batch.entries[i];
    out.sequence = view.first_seq + i;
    out.op_type = static_cast<std::uint32_t>(e.op_type);
    out.tenant_id = e.tenant_id.empty() ? std::string_view(model::k_default_tenant) : e.tenant_id;
    out.key = e.key;
    out.payload = std::string_view(dst, n);
    dst += n;
  }
  batch.batch_id = view.batch_id;
  batch.first_seq = view.first_seq;
  batch.last_seq = view.last_seq;
  batch.checksum = static_cast<std::uint32_t>(view.checksum);
  if (empty_tenants > 0) {
    for (std::size_t i = 0; i < count; ++i) {
      if (!view.entries[i].tenant_id.empty()) continue;
      findings.push_back({.severity = model::Severity::info,
                          .location = entry_where(key, i, batch.first_seq),
                          .message = "empty tenant id (normalised to \"default\"; the writer never produces it)",
                          .entry = i});
    }
  }
  return true;
}

}  // namespace

util::Result<DurablePrefix> decode_durable_prefix(std::string_view text, model::Findings& findings) {
  try {
    return decode_durable_prefix_unguarded(text, findings);
  } catch (const Json::Exception& e) { return Status::corruption("durable_prefix: " + json_exception_text(e)); }
}

util::Result<BatchRecord> decode_batch_record(std::string_view text, const std::string& key,
                                              model::Findings& findings) {
  BatchView view;
  if (decode_canonical_batch(text, key, findings, view)) {
    BatchRecord batch;
    static_cast<BatchHeader&>(batch) = view;
    batch.entries.resize(view.entries.size());
    for (std::size_t i = 0; i < view.entries.size(); ++i) {
      const OpLogEntryView& e = view.entries[i];
      batch.entries[i] = {e.sequence, e.op_type, std::string(e.tenant_id), std::string(e.key), std::string(e.payload)};
    }
    return batch;
  }
  try {
    return decode_batch_record_unguarded(text, key, findings);
  } catch (const Json::Exception& e) { return reject(1, key, json_exception_text(e)); }
}

util::Status decode_batch_view(std::string_view text, const std::string& key, model::Findings& findings,
                               BatchView& out) {
  if (decode_canonical_batch(text, key, findings, out)) return {};
  util::Result<BatchRecord> record = [&]() -> util::Result<BatchRecord> {
    try {
      return decode_batch_record_unguarded(text, key, findings);
    } catch (const Json::Exception& e) { return reject(1, key, json_exception_text(e)); }
  }();
  if (!record.ok()) return record.status();
  out.fallback = std::move(record).value();
  static_cast<BatchHeader&>(out) = out.fallback;
  out.entries.clear();
  out.entries.reserve(out.fallback.entries.size());
  for (const OpLogEntry& e : out.fallback.entries) out.entries.push_back(view_of(e));
  return {};
}

std::string encode_batch_record(std::uint64_t batch_id, std::uint64_t first_seq,
                                const std::vector<OpLogEntry>& entries) {
  Json::Value root(Json::arrayValue);
  root.append(Json::Value(Json::UInt{1}));
  root.append(Json::Value(Json::UInt64{batch_id}));
  root.append(Json::Value(Json::UInt64{first_seq}));
  root.append(Json::Value(Json::UInt64{entries.empty() ? first_seq : first_seq + entries.size() - 1}));
  Json::Value list(Json::arrayValue);
  for (const auto& e : entries) {
    Json::Value entry(Json::arrayValue);
    entry.append(Json::Value(Json::UInt{e.op_type}));
    entry.append(Json::Value(e.tenant_id.data(), e.tenant_id.data() + e.tenant_id.size()));
    entry.append(Json::Value(e.key.data(), e.key.data() + e.key.size()));
    entry.append(Json::Value(base64_encode(e.payload)));
    list.append(std::move(entry));
  }
  root.append(std::move(list));
  std::string text = canonical_json(root);
  const std::uint32_t checksum = xxh32(text);
  text.pop_back();
  text += "," + std::to_string(checksum) + "]";
  return text;
}

}  // namespace moonquota::format
