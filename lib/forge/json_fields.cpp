#include "forge/json_fields.hpp"

#include <algorithm>
#include <cstring>

namespace moonquota::forge {

util::Status JsonAt::error(const std::string& what) const { return util::Status::corruption(m_path + ": " + what); }

std::optional<JsonAt> JsonAt::member(const std::string& key) const {
  if (!m_value->is_object()) return std::nullopt;
  auto it = m_value->find(key);
  if (it == m_value->end() || it->is_null()) return std::nullopt;
  return JsonAt(*it, m_path + "." + key);
}

util::Result<std::vector<JsonAt>> JsonAt::array_member(const std::string& key) const {
  std::vector<JsonAt> items;
  auto node = member(key);
  if (!node) return items;
  if (!node->value().is_array()) return node->error("expected an array");
  for (std::size_t i = 0; i < node->value().size(); ++i) {
    items.emplace_back(node->value()[i], node->path() + "[" + std::to_string(i) + "]");
  }
  return items;
}

util::Status JsonAt::expect_object(std::initializer_list<const char*> allowed) const {
  if (!m_value->is_object()) return error("expected an object");
  for (const auto& item : m_value->items()) {
    const bool known =
        std::any_of(allowed.begin(), allowed.end(), [&](const char* name) { return item.key() == name; });
    if (!known) return error("unknown field '" + item.key() + "'");
  }
  return util::Status::ok_status();
}

util::Result<std::string> JsonAt::get_string(const std::string& key, std::optional<std::string> fallback) const {
  auto node = member(key);
  if (!node) {
    if (fallback) return *fallback;
    return error("missing required field '" + key + "'");
  }
  if (!node->value().is_string()) return node->error("expected a string");
  return node->value().get<std::string>();
}

util::Result<std::uint64_t> JsonAt::get_u64(const std::string& key, std::optional<std::uint64_t> fallback) const {
  auto node = member(key);
  if (!node) {
    if (fallback) return *fallback;
    return error("missing required field '" + key + "'");
  }
  const nlohmann::json& v = node->value();
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
  return node->error("expected an unsigned integer (0 .. 2^64-1)");
}

util::Result<std::int64_t> JsonAt::get_i64(const std::string& key, std::optional<std::int64_t> fallback) const {
  auto node = member(key);
  if (!node) {
    if (fallback) return *fallback;
    return error("missing required field '" + key + "'");
  }
  const nlohmann::json& v = node->value();
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return node->error("integer exceeds 2^63-1");
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return node->error("expected an integer");
}

util::Result<bool> JsonAt::get_bool(const std::string& key, std::optional<bool> fallback) const {
  auto node = member(key);
  if (!node) {
    if (fallback) return *fallback;
    return error("missing required field '" + key + "'");
  }
  if (!node->value().is_boolean()) return node->error("expected true or false");
  return node->value().get<bool>();
}

util::Result<std::int64_t> JsonAt::get_enum(const std::string& key, const model::EnumTable& names, std::int64_t min,
                                            std::int64_t max, std::optional<std::int64_t> fallback) const {
  auto node = member(key);
  if (!node) {
    if (fallback) return *fallback;
    return error("missing required field '" + key + "'");
  }
  const nlohmann::json& v = node->value();
  if (v.is_string()) {
    const auto& text = v.get_ref<const std::string&>();
    auto in_range = [&](std::int64_t number) { return number >= min && number <= max; };
    if (auto number = names.parse(text); number && in_range(*number)) return *number;
    std::string known;
    for (const model::EnumName& entry : names.names()) {
      if (in_range(entry.value)) known += std::string(known.empty() ? "" : ", ") + entry.name;
    }
    return node->error("unknown name '" + text + "' (expected one of " + known + ", or a number)");
  }
  if (v.is_number_integer()) {
    const bool in_range = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(max)
                                                 : (v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max);
    if (in_range) return v.get<std::int64_t>();
    return node->error("number out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return node->error("expected a name or an integer");
}

}  // namespace moonquota::forge
