#include "source/oplog_keys.hpp"

#include <charconv>

namespace moonquota::source {

std::optional<std::string> oplog_root(std::string_view cluster_id) {
  while (!cluster_id.empty() && cluster_id.back() == '/') cluster_id.remove_suffix(1);
  if (cluster_id.empty() || cluster_id.size() > 128) return std::nullopt;
  for (char c : cluster_id) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return std::nullopt;
  }
  return "/oplog/" + std::string(cluster_id) + "/";
}

std::string d20(std::uint64_t n) {
  std::string digits = std::to_string(n);
  return std::string(20 - digits.size(), '0') + digits;
}

std::optional<std::uint64_t> parse_d20(std::string_view text) {
  if (text.size() != 20) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

const char* oplog_key_class_name(OpLogKeyClass c) {
  switch (c) {
    case OpLogKeyClass::durable_prefix: return "durable_prefix";
    case OpLogKeyClass::batch: return "batch";
    case OpLogKeyClass::producer_view: return "producer_view";
    case OpLogKeyClass::legacy_latest: return "legacy latest";
    case OpLogKeyClass::legacy_entry: return "legacy entry";
    case OpLogKeyClass::legacy_snapshot: return "legacy snapshot";
    case OpLogKeyClass::cleanup: return "cleanup";
    case OpLogKeyClass::malformed_batch: return "malformed batch key";
    case OpLogKeyClass::malformed_legacy: return "malformed legacy key";
    case OpLogKeyClass::unknown: return "unknown";
  }
  return "?";
}

ClassifiedKey classify_oplog_key(std::string_view suffix) {
  if (suffix == "durable_prefix") return {OpLogKeyClass::durable_prefix, 0};
  if (suffix == "producer_view") return {OpLogKeyClass::producer_view, 0};
  if (suffix == "latest") return {OpLogKeyClass::legacy_latest, 0};
  if (suffix.rfind("batches/", 0) == 0) {
    auto id = parse_d20(suffix.substr(8));
    if (id) return {OpLogKeyClass::batch, *id};
    return {OpLogKeyClass::malformed_batch, 0};
  }
  if (suffix.rfind("snapshot/", 0) == 0) return {OpLogKeyClass::legacy_snapshot, 0};
  if (suffix.rfind("cleanup/", 0) == 0) return {OpLogKeyClass::cleanup, 0};
  if (suffix.size() == 20 && suffix.find('/') == std::string_view::npos) {
    auto seq = parse_d20(suffix);
    if (seq) return {OpLogKeyClass::legacy_entry, *seq};
    return {OpLogKeyClass::malformed_legacy, 0};
  }
  return {OpLogKeyClass::unknown, 0};
}

}  // namespace moonquota::source
