#include "format/descriptor.hpp"

#include <charconv>
#include <string>

namespace moonquota::format {

namespace {

template <typename T>
bool parse_whole(std::string_view field, T& out) {
  if (field.empty()) return false;
  auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), out, 10);
  return ec == std::errc() && ptr == field.data() + field.size();
}

}  // namespace

util::Result<model::SnapshotDescriptor> parse_descriptor(std::string_view text) {
  size_t first = text.find('|');
  size_t second = first == std::string_view::npos ? first : text.find('|', first + 1);
  if (second == std::string_view::npos) {
    return util::Status::corruption("descriptor.txt needs three '|'-separated fields");
  }
  model::SnapshotDescriptor d;
  if (!parse_whole(text.substr(0, first), d.last_included_seq)) {
    return util::Status::corruption("descriptor.txt last_included_seq '" + std::string(text.substr(0, first)) +
                                    "' is not an unsigned decimal");
  }
  std::string_view view = text.substr(first + 1, second - first - 1);
  if (!parse_whole(view, d.producer_view_version)) {
    return util::Status::corruption("descriptor.txt producer_view_version '" + std::string(view) +
                                    "' is not a signed decimal");
  }
  std::string_view created = text.substr(second + 1);
  if (!parse_whole(created, d.created_at_ms)) {
    return util::Status::corruption("descriptor.txt created_at_ms '" + std::string(created) +
                                    "' is not a signed decimal");
  }
  return d;
}

}  // namespace moonquota::format
