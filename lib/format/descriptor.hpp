// descriptor.txt: "<last_included_seq u64>|<producer_view_version i64>|<created_at_ms i64>"
// (snapshot-format.md §2.9). Split at the first two '|'; every field consumed completely by
// from_chars: no '+', no whitespace, no newline, no empty field; '-' only in the signed fields.
#pragma once

#include <string_view>

#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::format {

[[nodiscard]] util::Result<model::SnapshotDescriptor> parse_descriptor(std::string_view text);

}  // namespace moonquota::format
