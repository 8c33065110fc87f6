#include "app/history_command.hpp"

#include "history/history_store.hpp"

namespace moonquota::app {

util::Result<history::TrendTable> run_history_command(const HistoryArgs& args, std::uint64_t now_ms) {
  std::uint64_t since_ms = 0;
  if (!args.since.empty()) { MQ_ASSIGN_OR_RETURN(since_ms, history::parse_since(args.since, now_ms)); }
  MQ_ASSIGN_OR_RETURN(auto store, history::HistoryStore::open_existing(args.db));
  MQ_ASSIGN_OR_RETURN(auto runs, store->runs(since_ms));
  history::TrendTable trends =
      history::analyse_trends(runs, args.persistence_runs, args.model.value_or(history::latest_model(runs)));
  MQ_ASSIGN_OR_RETURN(trends.repairs, store->repairs(since_ms));
  return trends;
}

}  // namespace moonquota::app
