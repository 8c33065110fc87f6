// Typed, path-aware access to scenario JSON (nlohmann_json). Every error names the JSON path of
// the offending value ("$.snapshots[0].objects[3].size: expected an unsigned integer"), so a
// user can find it in a hand-written file.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/enums.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

// A JSON value together with its path from the document root. Does not own the value.
class JsonAt {
 public:
  JsonAt(const nlohmann::json& value, std::string path) : m_value(&value), m_path(std::move(path)) {}

  [[nodiscard]] const nlohmann::json& value() const { return *m_value; }
  [[nodiscard]] const std::string& path() const { return m_path; }

  // An error about this value: "<path>: <what>" with code corruption (the scenario is input: exit 3).
  [[nodiscard]] util::Status error(const std::string& what) const;

  // The member `key` of an object, or nullopt when absent (or null).
  [[nodiscard]] std::optional<JsonAt> member(const std::string& key) const;
  // The elements of an array member (empty when absent); fails when present but not an array.
  [[nodiscard]] util::Result<std::vector<JsonAt>> array_member(const std::string& key) const;

  // Fails unless this value is an object whose keys are all in `allowed` (catches typos).
  [[nodiscard]] util::Status expect_object(std::initializer_list<const char*> allowed) const;

  // Typed members. With a fallback, an absent member yields the fallback; without one it is an
  // error ("missing required field").
  [[nodiscard]] util::Result<std::string> get_string(const std::string& key,
                                                     std::optional<std::string> fallback = std::nullopt) const;
  [[nodiscard]] util::Result<std::uint64_t> get_u64(const std::string& key,
                                                    std::optional<std::uint64_t> fallback = std::nullopt) const;
  [[nodiscard]] util::Result<std::int64_t> get_i64(const std::string& key,
                                                   std::optional<std::int64_t> fallback = std::nullopt) const;
  [[nodiscard]] util::Result<bool> get_bool(const std::string& key, std::optional<bool> fallback = std::nullopt) const;

  // An enum given by name (case-sensitive, a name of `names` whose value is in [min, max]) or by
  // number in [min, max]. Names outside the range are neither accepted nor listed in the error.
  [[nodiscard]] util::Result<std::int64_t> get_enum(const std::string& key, const model::EnumTable& names,
                                                    std::int64_t min, std::int64_t max,
                                                    std::optional<std::int64_t> fallback = std::nullopt) const;

 private:
  const nlohmann::json* m_value;
  std::string m_path;
};

}  // namespace moonquota::forge
