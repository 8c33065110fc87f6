#include "inspect/object_checksums.hpp"

#include "util/plural.hpp"

namespace moonquota::inspect {

std::optional<ChecksumCheck> check_object_checksums(source::ObjectStore& store, const std::vector<std::string>& keys,
                                                    FindingCollector& out) {
  ChecksumCheck check;
  bool any_details = false;
  for (const auto& key : keys) {
    const auto details = store.details(key);
    if (!details) continue;
    any_details = true;
    if (!details->read_crc32c) {
      ++check.not_read_whole;
    } else if (!details->server_crc32c) {
      ++check.without_server_checksum;
    } else {
      ++check.checked;
      if (*details->server_crc32c != *details->read_crc32c) {
        ++check.mismatched;
        out.add(file_finding(model::Severity::error, k_crc32c_rule, key,
                             "CRC32C mismatch: the server's x-amz-checksum-crc32c is " + *details->server_crc32c +
                                 ", the bytes read give " + *details->read_crc32c));
      }
    }
  }
  if (!any_details) return std::nullopt;
  return check;
}

std::string describe_checksums(const ChecksumCheck& check) {
  if (check.server_sent_none()) return "the server sent no x-amz-checksum-crc32c: objects not checked";
  std::string text = util::counted(check.checked, "object", "objects") + " CRC32C-checked against the server";
  if (check.mismatched > 0) text += ", " + util::counted(check.mismatched, "mismatch", "mismatches");
  if (check.without_server_checksum > 0) {
    text += "; " + std::to_string(check.without_server_checksum) + " without a server checksum";
  }
  if (check.not_read_whole > 0) {
    text += "; " + std::to_string(check.not_read_whole) + " read in ranges only, not checked";
  }
  return text;
}

}  // namespace moonquota::inspect
