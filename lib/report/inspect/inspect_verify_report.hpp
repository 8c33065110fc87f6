// Renderer of `verify` (schema snapshot-inspect-verify/1): per-rule counts, then every kept
// finding in order (file-level first, then by shard, entry, replica), each naming shard, entry,
// tenant, key and replica where they apply.
#pragma once

#include <ostream>

#include "inspect/verify.hpp"
#include "report/inspect/inspect_json.hpp"

namespace moonquota::report {

void render_verify(const InspectContext& context, const inspect::VerifyResult& result, OutputFormat format,
                   std::ostream& out);

}  // namespace moonquota::report
