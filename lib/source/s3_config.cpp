#include "source/s3_config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "util/file_reader.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::source {

namespace {

constexpr std::uint64_t k_env_file_limit = 1 << 20;

std::string trim(const std::string& s) {
  const char* ws = " \t\r";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

util::Status read_bool(const EnvLookup& env, const std::string& name, bool& out) {
  const auto value = env(name);
  if (!value || value->empty()) return {};
  const auto parsed = parse_bool_setting(*value);
  if (!parsed) return util::Status::invalid_argument(name + "='" + *value + "' is not true or false");
  out = *parsed;
  return {};
}

util::Status read_ms(const EnvLookup& env, const std::string& name, std::uint32_t& out) {
  const auto value = env(name);
  if (!value || value->empty()) return {};
  std::uint64_t ms = 0;
  bool digits = !value->empty() && value->size() <= 9;
  for (char c : *value) {
    if (c < '0' || c > '9') digits = false;
    if (digits) ms = ms * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!digits || ms == 0)
    return util::Status::invalid_argument(name + "='" + *value + "' is not a positive number of ms");
  out = static_cast<std::uint32_t>(ms);
  return {};
}

// The first set, non-empty variable of `names`.
std::optional<std::string> first_of(const EnvLookup& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = env(name); value && !value->empty()) return value;
  }
  return std::nullopt;
}

}  // namespace

EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): read once at startup
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

EnvLookup layered_environment(std::map<std::string, std::string> overrides, EnvLookup fallback) {
  return [overrides = std::move(overrides), fallback = std::move(fallback)](const std::string& name) {
    if (auto it = overrides.find(name); it != overrides.end()) return std::optional<std::string>(it->second);
    return fallback ? fallback(name) : std::nullopt;
  };
}

std::optional<bool> parse_bool_setting(const std::string& text) {
  const std::string v = util::ascii_lower(trim(text));
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  return std::nullopt;
}

util::Result<S3Config> s3_config_from_environment(const EnvLookup& env) {
  S3Config config;
  if (auto v = env("MOONCAKE_AWS_S3_ENDPOINT")) config.endpoint = trim(*v);
  if (auto v = first_of(env, {"MOONCAKE_AWS_REGION", "AWS_REGION", "AWS_DEFAULT_REGION"})) config.region = trim(*v);
  if (auto v = env("MOONCAKE_AWS_BUCKET_NAME")) config.bucket = trim(*v);
  const auto mooncake_key = first_of(env, {"MOONCAKE_AWS_ACCESS_KEY_ID"});
  const auto mooncake_secret = first_of(env, {"MOONCAKE_AWS_SECRET_ACCESS_KEY"});
  if (mooncake_key || mooncake_secret) {
    config.access_key_id = mooncake_key.value_or("");
    config.secret_access_key = mooncake_secret.value_or("");
    config.credentials_from = "MOONCAKE_AWS_ACCESS_KEY_ID / MOONCAKE_AWS_SECRET_ACCESS_KEY";
  } else if (auto key = first_of(env, {"AWS_ACCESS_KEY_ID"})) {
    config.access_key_id = *key;
    config.secret_access_key = first_of(env, {"AWS_SECRET_ACCESS_KEY"}).value_or("");
    config.session_token = first_of(env, {"AWS_SESSION_TOKEN"}).value_or("");
    config.credentials_from = "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN";
  }
  if (auto v = first_of(env, {"AWS_CA_BUNDLE"})) config.ca_file = trim(*v);
  MQ_RETURN_IF_ERROR(read_bool(env, "MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING", config.virtual_addressing));
  MQ_RETURN_IF_ERROR(read_bool(env, "MOONCAKE_AWS_USE_HTTPS", config.use_https));
  MQ_RETURN_IF_ERROR(read_ms(env, "MOONCAKE_AWS_CONNECT_TIMEOUT_MS", config.connect_timeout_ms));
  MQ_RETURN_IF_ERROR(read_ms(env, "MOONCAKE_AWS_REQUEST_TIMEOUT_MS", config.request_timeout_ms));
  return config;
}

util::Result<std::map<std::string, std::string>> read_environment_file(const std::string& path) {
  MQ_ASSIGN_OR_RETURN(std::string text, util::read_small_file(path, k_env_file_limit));
  return parse_environment_text(text, path);
}

util::Result<std::map<std::string, std::string>> parse_environment_text(std::string_view text,
                                                                        const std::string& path) {
  std::map<std::string, std::string> out;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto end = std::min(text.find('\n', pos), text.size());
    std::string line = trim(std::string(text.substr(pos, end - pos)));
    pos = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("export ", 0) == 0) line = trim(line.substr(7));
    const auto eq = line.find('=');
    const std::string name = eq == std::string::npos ? line : trim(line.substr(0, eq));
    const bool valid_name = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
      return std::isalnum(c) != 0 || c == '_';
    }) && std::isdigit(static_cast<unsigned char>(name[0])) == 0;
    if (eq == std::string::npos || !valid_name) {
      return util::Status::invalid_argument(path + ":" + std::to_string(line_no) + ": not a NAME=VALUE line");
    }
    std::string value = trim(line.substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    out[name] = value;
  }
  return out;
}

std::string endpoint_origin(const S3Config& config) {
  std::string endpoint = config.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  if (endpoint.empty()) endpoint = "s3." + config.region + ".amazonaws.com";
  if (endpoint.rfind("http://", 0) == 0 || endpoint.rfind("https://", 0) == 0) return endpoint;
  return (config.use_https ? "https://" : "http://") + endpoint;
}

std::string describe(const S3Config& config) {
  return "endpoint " + endpoint_origin(config) + ", region " + config.region + ", " +
         (config.virtual_addressing ? "virtual-hosted" : "path-style") + " addressing, credentials from " +
         config.credentials_from;
}

}  // namespace moonquota::source
