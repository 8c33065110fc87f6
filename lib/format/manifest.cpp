#include "format/manifest.hpp"

#include <algorithm>
#include <cctype>

namespace moonquota::format {

namespace {

constexpr std::string_view k_protocol = "messagepack";
constexpr std::string_view k_version = "1.0.0";

std::vector<std::string_view> split_all(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t p = s.find(sep, start);
    if (p == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, p - start));
    start = p + 1;
  }
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

util::Result<ManifestCheck> check_manifest(std::string_view text, ManifestRule rule, std::string_view snapshot_id) {
  auto parts = split_all(text, '|');
  std::string_view protocol;
  std::string_view version;
  std::string_view rest;
  if (rule == ManifestRule::master) {
    if (parts.size() < 3) {
      return util::Status::corruption("manifest.txt has " + std::to_string(parts.size()) +
                                      " '|'-separated parts, the master needs at least 3");
    }
    protocol = parts[0];
    version = parts[1];
    rest = text.substr(protocol.size() + version.size() + 2);
  } else {
    if (parts.size() < 3) {
      return util::Status::corruption("manifest.txt has fewer than two '|', the standby needs two");
    }
    protocol = parts[0];
    version = parts[1];
    rest = text.substr(protocol.size() + version.size() + 2);
  }
  if (protocol != k_protocol) {
    return util::Status::corruption("manifest.txt serializer type is " + quoted(protocol) + ", expected 'messagepack'");
  }
  if (version != k_version) {
    return util::Status::corruption("manifest.txt serializer version is " + quoted(version) + ", expected '1.0.0'");
  }
  ManifestCheck check;
  if (parts.size() > 3) check.warnings.push_back("manifest.txt has extra '|'-separated parts after the snapshot id");
  std::string_view id_part = parts[2];
  if (id_part != snapshot_id) {
    check.warnings.push_back("manifest.txt names snapshot " + quoted(id_part) + ", the directory is " +
                             quoted(snapshot_id));
  }
  if (std::any_of(rest.begin(), rest.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    check.warnings.push_back("manifest.txt contains whitespace");
  }
  return check;
}

}  // namespace moonquota::format
