// `snapshot-inspect fingerprint`: a snapshot's shape as text or as JSON
// (snapshot-inspect-fingerprint/1), and that JSON read back (snapshot-golden compares a stored
// fingerprint.json with today's).
#pragma once

#include <ostream>
#include <string>

#include "inspect/snapshot_fingerprint.hpp"
#include "report/output_format.hpp"
#include "util/status.hpp"

namespace moonquota::report {

inline constexpr const char* k_fingerprint_schema = "snapshot-inspect-fingerprint/1";

void render_fingerprint(const inspect::SnapshotFingerprint& fingerprint, OutputFormat format, std::ostream& out);

// The shape of a snapshot-inspect-fingerprint/1 document (counts, places and unknown marks as
// written). Errors: corruption naming `name` and what is wrong (not JSON, another schema, a
// section or feature of the wrong type).
[[nodiscard]] util::Result<inspect::SnapshotFingerprint> parse_fingerprint_json(const std::string& text,
                                                                                const std::string& name);

}  // namespace moonquota::report
