// `quota-reconcile history`: the drift trend recorded in a history store (--db), read only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "history/trend.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct HistoryArgs {
  std::string db;                    // --db DIR: an existing history store
  std::string since;                 // --since: ms since the epoch, or an age like 24h, 7d ("": every run)
  std::optional<std::string> model;  // live | restore (default: the model of the newest run)
  std::uint32_t persistence_runs = history::k_default_persistence_runs;
};

// The trend of the runs at or after --since (`now_ms` anchors an age). Errors: invalid_argument
// (--since), those of opening and reading the store (not_found when --db holds none).
[[nodiscard]] util::Result<history::TrendTable> run_history_command(const HistoryArgs& args, std::uint64_t now_ms);

}  // namespace moonquota::app
