#include "fuzz/live_parsers_entry.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "format/oplog_payloads.hpp"
#include "format/policy_yaml.hpp"
#include "format/struct_pack_reader.hpp"
#include "fuzz/entry_checks.hpp"
#include "inspect/survival_points.hpp"
#include "model/tenant_id.hpp"
#include "reconcile/expected_table_reader.hpp"
#include "reconcile/ha_metrics.hpp"
#include "reconcile/prometheus_text.hpp"
#include "reconcile/tenant_list.hpp"
#include "reconcile/tenant_metrics.hpp"
#include "source/s3_url.hpp"
#include "source/s3_xml.hpp"
#include "util/checked_math.hpp"

namespace moonquota::fuzz {

namespace {

using nlohmann::json;

std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// --- Prometheus text --------------------------------------------------------------------------

std::string escape_help(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// The exposition written back. Lines end in "\r\n": the parser drops one '\r', so text that
// itself ends in '\r' (a TYPE line's rest) survives.
std::string write_exposition(const reconcile::PromExposition& e) {
  std::string out;
  for (const auto& [name, text] : e.help) out += "# HELP " + name + " " + escape_help(text) + "\r\n";
  for (const auto& [name, text] : e.types) out += "# TYPE " + name + " " + text + "\r\n";
  for (const auto& s : e.samples) {
    out += s.name;
    if (!s.labels.empty()) {
      out += "{";
      for (std::size_t i = 0; i < s.labels.size(); ++i) {
        if (i > 0) out += ",";
        out += s.labels[i].first + "=\"" + reconcile::escape_label_value(s.labels[i].second) + "\"";
      }
      out += "}";
    }
    out += " " + s.value_text;
    if (s.timestamp_ms) out += " " + std::to_string(*s.timestamp_ms);
    out += "\r\n";
  }
  return out;
}

bool same_sample(const reconcile::PromSample& a, const reconcile::PromSample& b) {
  const bool same_value = (std::isnan(a.value) && std::isnan(b.value)) || a.value == b.value;
  return a.name == b.name && a.labels == b.labels && a.value_text == b.value_text && same_value &&
         a.timestamp_ms == b.timestamp_ms;
}

// --- tenant list ------------------------------------------------------------------------------

// The rows a DOM reading gives (the reader before issue 11 item 26), nullopt when it refuses.
std::optional<std::vector<reconcile::LiveTenant>> dom_rows(std::optional<int> status, std::string_view body) {
  if (status && *status != 200) return std::nullopt;
  const json doc = json::parse(body.begin(), body.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  auto success = doc.find("success");
  if (success == doc.end() || !success->is_boolean() || !success->get<bool>()) return std::nullopt;
  auto data = doc.find("data");
  if (data == doc.end() || !data->is_array()) return std::nullopt;
  std::vector<reconcile::LiveTenant> rows;
  for (const auto& row : *data) {
    if (!row.is_object()) return std::nullopt;
    reconcile::LiveTenant t;
    auto id = row.find("tenant_id");
    if (id == row.end() || !id->is_string()) return std::nullopt;
    t.tenant_id = id->get<std::string>();
    for (auto [name, slot] :
         {std::pair{"requested_quota_bytes", &t.requested_quota_bytes},
          std::pair{"effective_quota_bytes", &t.effective_quota_bytes}, std::pair{"charged_bytes", &t.charged_bytes}}) {
      auto it = row.find(name);
      if (it == row.end() || !it->is_number_unsigned()) return std::nullopt;
      *slot = it->get<std::uint64_t>();
    }
    if (t.charged_bytes > util::k_max_charged_bytes) return std::nullopt;
    for (auto [name, slot] :
         {std::pair{"admission_closed", &t.admission_closed}, std::pair{"over_quota", &t.over_quota},
          std::pair{"has_explicit_policy", &t.has_explicit_policy}}) {
      auto it = row.find(name);
      if (it == row.end() || !it->is_boolean()) return std::nullopt;
      *slot = it->get<bool>();
    }
    rows.push_back(std::move(t));
  }
  return rows;
}

std::string write_tenant_list(const std::vector<reconcile::LiveTenant>& rows) {
  json data = json::array();
  for (const auto& t : rows) {
    data.push_back({{"tenant_id", t.tenant_id},
                    {"requested_quota_bytes", t.requested_quota_bytes},
                    {"effective_quota_bytes", t.effective_quota_bytes},
                    {"charged_bytes", t.charged_bytes},
                    {"admission_closed", t.admission_closed},
                    {"over_quota", t.over_quota},
                    {"has_explicit_policy", t.has_explicit_policy}});
  }
  return json{{"success", true}, {"data", data}}.dump();
}

// --- tenant metrics ---------------------------------------------------------------------------

std::string write_tenant_metrics(const reconcile::TenantMetrics& m) {
  std::string out;
  if (m.block_present) out += "# TYPE mooncake_tenant_quota_charged_bytes gauge\n";
  auto global = [&](const char* name, const std::optional<std::uint64_t>& v) {
    if (v) out += std::string(name) + " " + std::to_string(*v) + "\n";
  };
  global("mooncake_tenant_quota_allocatable_capacity_bytes", m.capacity_bytes);
  global("mooncake_tenant_quota_requested_bytes_sum", m.requested_sum_bytes);
  global("mooncake_tenant_quota_effective_bytes_sum", m.effective_sum_bytes);
  for (const auto& t : m.tenants) {
    const std::string label = "{tenant_id=\"" + reconcile::escape_label_value(t.tenant_id) + "\"} ";
    out += "mooncake_tenant_quota_requested_bytes" + label + std::to_string(t.requested_quota_bytes) + "\n";
    out += "mooncake_tenant_quota_effective_bytes" + label + std::to_string(t.effective_quota_bytes) + "\n";
    out += "mooncake_tenant_quota_charged_bytes" + label + std::to_string(t.charged_bytes) + "\n";
    out += "mooncake_tenant_quota_admission_closed" + label + (t.admission_closed ? "1\n" : "0\n");
    out += "mooncake_tenant_quota_over_quota" + label + (t.over_quota ? "1\n" : "0\n");
    out += "mooncake_tenant_quota_explicit_policy" + label + (t.has_explicit_policy ? "1\n" : "0\n");
  }
  return out;
}

bool same_metrics(const reconcile::TenantMetrics& a, const reconcile::TenantMetrics& b) {
  return a.block_present == b.block_present && a.tenants == b.tenants && a.capacity_bytes == b.capacity_bytes &&
         a.requested_sum_bytes == b.requested_sum_bytes && a.effective_sum_bytes == b.effective_sum_bytes;
}

// --- struct_pack ------------------------------------------------------------------------------

// The number N at the end of "... at byte N".
std::optional<std::size_t> error_offset(const std::string& error) {
  const auto at = error.rfind(" at byte ");
  if (at == std::string::npos) return std::nullopt;
  const std::string digits = error.substr(at + 9);
  if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoull(digits));
}

void check_reader_state(const format::StructPackReader& r, bool ok) {
  check(r.position() <= r.size());
  if (!ok) {
    auto offset = error_offset(r.error());
    check(offset.has_value() && *offset <= r.size());
  }
}

template <typename Op, typename Decode, typename Encode>
void payload_round_trip(std::string_view buffer, Decode decode, Encode encode) {
  format::PayloadShape shape;
  auto value = decode(buffer, &shape);
  check_error(value);
  if (!value.ok()) return;
  const std::string again = encode(*value, shape.form);
  format::PayloadShape again_shape;
  auto round = decode(again, &again_shape);
  check(round.ok() && again_shape.form == shape.form && again_shape.trailing_bytes == 0);
  check(encode(*round, shape.form) == again);
}

}  // namespace

int run_prometheus_text(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = as_text(data, size);
  auto parsed = reconcile::parse_prometheus_text(text);
  check_error(parsed);
  std::size_t streamed = 0;
  auto scanned = reconcile::scan_prometheus_text(
      text,
      [&](reconcile::PromSample&& s) {
        if (parsed.ok()) check(streamed < parsed->samples.size() && same_sample(s, parsed->samples[streamed]));
        ++streamed;
        return util::Status();
      },
      [](std::string_view, std::string_view, std::string_view) {});
  check(scanned.ok() == parsed.ok());
  if (!parsed.ok()) {
    check(scanned.message() == parsed.status().message());
    return 0;
  }
  check(streamed == parsed->samples.size());
  for (const auto& s : parsed->samples) {
    check(!s.name.empty() && s.labels.size() <= reconcile::k_max_labels_per_sample && s.line > 0);
  }
  auto round = reconcile::parse_prometheus_text(write_exposition(*parsed));
  check(round.ok() && round->samples.size() == parsed->samples.size());
  for (std::size_t i = 0; i < parsed->samples.size(); ++i) check(same_sample(round->samples[i], parsed->samples[i]));
  check(round->help == parsed->help && round->types == parsed->types);
  return 0;
}

int run_tenant_list(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr int k_statuses[] = {0, 200, 409, 500, 503};
  const int pick = k_statuses[data[0] % 5];
  const std::optional<int> status = pick == 0 ? std::nullopt : std::optional<int>(pick);
  const std::string_view body = as_text(data + 1, size - 1);
  auto rows = reconcile::parse_tenant_list_response(status, body);
  check_error(rows);
  // The same body as a `quota-rebuild --expect` file: rows or a reason, never a tenant twice.
  auto expected = reconcile::parse_expected_table(std::string(body), "expect.json");
  check_error(expected);
  if (expected.ok()) {
    std::set<std::string> ids;
    for (const auto& r : expected->rows) check(ids.insert(r.tenant_id).second);
  }
  const bool too_deep = !rows.ok() && rows.status().message().find("deeper than") != std::string::npos;
  if (!too_deep) {
    auto reference = dom_rows(status, body);
    check(reference.has_value() == rows.ok());
    if (!rows.ok()) return 0;
    check(*reference == *rows);
  }
  if (!rows.ok()) return 0;
  for (const auto& t : *rows) check(t.charged_bytes <= util::k_max_charged_bytes);
  auto round = reconcile::parse_tenant_list_response(200, write_tenant_list(*rows));
  check(round.ok() && *round == *rows);
  // What the master's reader accepts, written as a master's response, is an expected table of the
  // same rows; unless a tenant is listed twice (the list reader takes it, an expected table may
  // not: which row would it expect?), which the expected table refuses naming it.
  auto as_expected = reconcile::parse_expected_table(write_tenant_list(*rows), "expect.json");
  std::set<std::string> listed;
  bool twice = false;
  for (const auto& t : *rows) twice = !listed.insert(t.tenant_id).second || twice;
  if (twice) {
    check(!as_expected.ok() && as_expected.status().message().find("' twice") != std::string::npos);
    return 0;
  }
  check(as_expected.ok() && as_expected->rows.size() == rows->size());
  for (std::size_t i = 0; as_expected.ok() && i < rows->size(); ++i) {
    const auto& e = as_expected->rows[i];
    const auto& t = (*rows)[i];
    check(e.tenant_id == t.tenant_id && e.charged_bytes == t.charged_bytes &&
          e.requested_quota_bytes == t.requested_quota_bytes && e.effective_quota_bytes == t.effective_quota_bytes &&
          e.admission_closed == t.admission_closed && e.over_quota == t.over_quota &&
          e.has_explicit_policy == t.has_explicit_policy);
  }
  return 0;
}

int run_tenant_metrics(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = as_text(data, size);
  auto streamed = reconcile::parse_tenant_metrics(text);
  check_error(streamed);
  // The HA gauges of the same text (oplog-inspect lag): a text that does not parse as an
  // exposition is refused by both readers.
  auto ha = reconcile::read_ha_metrics(text);
  check_error(ha);
  auto exposition = reconcile::parse_prometheus_text(text);
  if (!exposition.ok()) check(!ha.ok());
  if (exposition.ok()) {
    auto stored = reconcile::extract_tenant_metrics(*exposition);
    check(stored.ok() == streamed.ok());
    if (!stored.ok()) {
      check(stored.status().message() == streamed.status().message());
    } else {
      check(same_metrics(*stored, *streamed));
    }
  } else {
    check(!streamed.ok());
  }
  if (!streamed.ok()) return 0;
  for (const auto& t : streamed->tenants) check(t.charged_bytes <= util::k_max_charged_bytes);
  auto round = reconcile::parse_tenant_metrics(write_tenant_metrics(*streamed));
  check(round.ok() && same_metrics(*round, *streamed));
  return 0;
}

int run_policy_yaml(const std::uint8_t* data, std::size_t size) {
  auto policy = format::parse_policy_yaml(as_text(data, size), "fuzz");
  check_error(policy);
  if (!policy.ok()) return 0;
  for (const auto& [name, quota] : policy->quotas) {
    check(model::is_valid_tenant_id(name) && quota >= 1 && quota <= util::k_max_charged_bytes);
  }
  auto round = format::parse_policy_yaml(format::format_policy_yaml(policy->quotas), "fuzz round trip");
  check(round.ok() && round->quotas == policy->quotas && round->warnings.empty());
  return 0;
}

int run_struct_pack(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t ops = std::min<std::size_t>(data[0] % 32, size - 1);
  const std::uint8_t* program = data + 1;
  const std::string_view buffer = as_text(data + 1 + ops, size - 1 - ops);

  std::uint32_t type_code = 0x5A17C0DE;
  if (ops > 0 && (program[0] & 1) != 0 && buffer.size() >= 4) std::memcpy(&type_code, buffer.data(), 4);
  format::StructPackReader reader(buffer);
  format::StructPackHeader header;
  const bool opened = reader.open(type_code, "fuzz_literal", header);
  check_reader_state(reader, opened);
  if (opened) {
    check(header.body_offset == reader.position());
    check(header.length_width == 1 || header.length_width == 2 || header.length_width == 4 || header.length_width == 8);
    check(!header.has_total_len || (header.total_len <= buffer.size() && header.total_len >= header.body_offset));
    for (std::size_t i = 0; i < ops; ++i) {
      const std::uint8_t op = program[i];
      const std::size_t before = reader.position();
      bool ok = true;
      switch (op % 7) {
        case 0: {
          std::uint8_t v = 0;
          ok = reader.u8(v, "u8");
          break;
        }
        case 1: {
          std::uint64_t v = 0;
          ok = reader.u64(v, "u64");
          break;
        }
        case 2: {
          std::int32_t v = 0;
          ok = reader.i32(v, "i32");
          break;
        }
        case 3: {
          bool v = false;
          ok = reader.boolean(v, "bool");
          break;
        }
        case 4: {
          std::string v;
          ok = reader.string(v, "string");
          check(!ok || v.size() <= reader.position() - before);
          break;
        }
        case 5: {
          std::uint64_t v = 0;
          const std::size_t min_bytes = (op >> 3) % 9;
          ok = reader.count(v, min_bytes, "count");
          if (ok && min_bytes > 0) check(v <= (reader.size() - reader.position()) / min_bytes);
          break;
        }
        default: reader.set_limit(reader.position() + (op >> 3)); break;
      }
      check_reader_state(reader, ok);
      if (!ok) break;
      check(reader.position() >= before);
    }
  }

  switch (data[0] % 3) {
    case 0:
      payload_round_trip<format::MetadataPayload>(
          buffer, [](std::string_view b, format::PayloadShape* s) { return format::decode_metadata_payload(b, s); },
          [](const format::MetadataPayload& p, format::PayloadForm f) {
            return format::encode_metadata_payload(p, f);
          });
      break;
    case 1:
      payload_round_trip<format::SegmentMountOp>(
          buffer, [](std::string_view b, format::PayloadShape* s) { return format::decode_segment_mount(b, s); },
          [](const format::SegmentMountOp& p, format::PayloadForm f) { return format::encode_segment_mount(p, f); });
      break;
    default:
      payload_round_trip<format::SegmentUnmountOp>(
          buffer, [](std::string_view b, format::PayloadShape* s) { return format::decode_segment_unmount(b, s); },
          [](const format::SegmentUnmountOp& p, format::PayloadForm f) {
            return format::encode_segment_unmount(p, f);
          });
      break;
  }
  return 0;
}

int run_s3_answers(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = as_text(data, size);
  // S3 XML answers: every element is a view into the body; decoding never grows past the input
  // by more than UTF-8 expansion of a numeric reference (at most 4 bytes for 3+ input bytes).
  for (const char* tag : {"Contents", "Key", "Code", "Message", "IsTruncated", "NextContinuationToken"}) {
    for (std::string_view element : source::xml_elements(text, tag)) {
      check(element.data() >= text.data() && element.data() + element.size() <= text.data() + text.size());
      check(source::xml_unescape(element).size() <= element.size() * 2);
    }
    if (auto first = source::xml_first(text, tag)) check(first->size() <= text.size() * 2);
  }
  const std::string raw(text);
  check(source::xml_unescape(source::xml_escape(raw)) == raw);
  // Locations: what parses writes back to the same bucket and key.
  const std::string url = std::string(source::k_s3_scheme) + raw;
  auto parsed = source::parse_s3_url(url);
  check_error(parsed);
  if (parsed.ok()) {
    auto again = source::parse_s3_url(source::s3_url(*parsed));
    check(again.ok() && again->bucket == parsed->bucket && again->key == parsed->key);
  }
  auto resolved = source::resolve_store_location(url, "fuzz-bucket");
  check_error(resolved);
  if (resolved.ok()) check(source::parse_s3_url(*resolved).ok());
  check_error(inspect::parse_survival_points(raw));
  return 0;
}

}  // namespace moonquota::fuzz
