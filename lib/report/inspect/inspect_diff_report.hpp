// Renderers of `diff` (schema snapshot-inspect-diff/1). Object changes stream: text and NDJSON
// write every change as it arrives; JSON keeps at most `limit` changes in the document (the
// counts are always complete). The trailer holds per-tenant deltas (only tenants whose restored
// objects or charge differ) and segment changes.
#pragma once

#include <ostream>

#include "inspect/snapshot_diff.hpp"
#include "report/inspect/inspect_json.hpp"

namespace moonquota::report {

[[nodiscard]] Json object_change_json(const inspect::ObjectChange& change);

class DiffWriter {
 public:
  DiffWriter(OutputFormat format, std::uint64_t limit, std::ostream& out)
      : m_format(format), m_limit(limit), m_out(out) {}
  void begin(const inspect::DiffSide& a, const inspect::DiffSide& b);
  void write(const inspect::ObjectChange& change);
  void end(const inspect::DiffResult& result, std::uint64_t restore_time_ms);

 private:
  OutputFormat m_format;
  std::uint64_t m_limit;  // 0: no limit
  std::ostream& m_out;
  std::uint64_t m_written = 0;
  Json m_kept = Json::array();
  std::string m_a;
  std::string m_b;
};

}  // namespace moonquota::report
