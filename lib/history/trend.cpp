#include "history/trend.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include "history/history_store.hpp"

namespace moonquota::history {

namespace {

int sign_of(const TenantPoint& p) {
  if (p.unexplained_within_tolerance) return 0;
  return p.unexplained_bytes > 0 ? 1 : p.unexplained_bytes < 0 ? -1 : 0;
}

std::optional<double> slope_per_hour(const std::vector<TrendPoint>& pts) {
  if (pts.size() < 2) return std::nullopt;
  const double t0 = static_cast<double>(pts.front().run_at_ms);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& p : pts) {
    const double x = (static_cast<double>(p.run_at_ms) - t0) / 3600000.0;
    const double y = static_cast<double>(p.point.unexplained_bytes);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(pts.size());
  const double denom = n * sxx - sx * sx;
  if (denom <= 0) return std::nullopt;
  // Whole bytes per hour: every renderer then shows the same number (and never "-0").
  const double rate = std::round((n * sxy - sx * sy) / denom);
  return rate == 0 ? 0.0 : rate;
}

}  // namespace

const TenantTrend* TrendTable::find(const std::string& tenant_id) const {
  for (const auto& t : tenants) {
    if (t.tenant_id == tenant_id) return &t;
  }
  return nullptr;
}

std::string latest_model(const std::vector<RunRecord>& runs) { return runs.empty() ? "live" : runs.back().model; }

TrendTable analyse_trends(const std::vector<RunRecord>& all_runs, std::uint32_t persistence_runs,
                          const std::string& model) {
  std::vector<const RunRecord*> runs;
  for (const auto& r : all_runs) {
    if (r.model == model) runs.push_back(&r);
  }
  TrendTable table;
  table.model = model;
  table.persistence_runs = persistence_runs == 0 ? 1 : persistence_runs;
  std::map<std::string, TenantTrend> trends;
  std::map<std::string, std::size_t> last_run_index;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    table.run_times_ms.push_back(runs[i]->run_at_ms);
    for (const auto& p : runs[i]->tenants) {
      auto& t = trends[p.tenant_id];
      t.tenant_id = p.tenant_id;
      t.points.push_back({runs[i]->run_at_ms, p});
      last_run_index[p.tenant_id] = i;
    }
  }
  for (auto& [id, t] : trends) {
    // The streak only counts when the tenant was in the latest run and in each run of the streak.
    if (last_run_index[id] + 1 == runs.size()) {
      const int sign = sign_of(t.points.back().point);
      std::size_t n = 0;
      std::size_t run_pos = runs.size();
      for (auto it = t.points.rbegin(); sign != 0 && it != t.points.rend(); ++it) {
        if (sign_of(it->point) != sign || it->run_at_ms != runs[run_pos - 1]->run_at_ms) break;
        ++n;
        --run_pos;
      }
      t.streak_runs = static_cast<std::uint32_t>(n);
      t.streak_sign = n > 0 ? sign : 0;
    }
    t.persistent = t.streak_runs >= table.persistence_runs;
    if (t.streak_runs >= 2) {
      std::vector<TrendPoint> streak(t.points.end() - t.streak_runs, t.points.end());
      t.rate_bytes_per_hour = slope_per_hour(streak);
    }
    table.tenants.push_back(std::move(t));
  }
  return table;
}

util::Result<std::uint64_t> parse_since(const std::string& text, std::uint64_t now_ms) {
  auto bad = [&] {
    return util::Status::invalid_argument("--since '" + text +
                                          "': expected milliseconds since the epoch or an age "
                                          "like 90m, 24h, 7d");
  };
  if (text.empty()) return bad();
  std::uint64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr == text.data()) return bad();
  const std::string unit(ptr, text.data() + text.size());
  if (unit.empty()) return n;
  std::uint64_t scale = 0;
  if (unit == "s") scale = 1000;
  if (unit == "m") scale = 60'000;
  if (unit == "h") scale = 3'600'000;
  if (unit == "d") scale = 86'400'000;
  if (scale == 0) return bad();
  const std::uint64_t age = n > now_ms / scale ? now_ms : n * scale;
  return now_ms - age;
}

util::Result<TrendTable> record_and_analyse(const std::string& db_dir, RunRecord run, std::uint32_t persistence_runs,
                                            std::uint32_t lock_wait_ms, std::uint64_t since_ms) {
  // Overlapping runs (a slow cron job and the next one) share the store: RocksDB's LOCK lets one
  // process in at a time, so wait for it instead of losing this run.
  auto opened = HistoryStore::open(db_dir);
  for (std::uint32_t waited = 0; !opened.ok() && opened.status().code() == util::StatusCode::io_error &&
                                 opened.status().message().find("lock") != std::string::npos && waited < lock_wait_ms;
       waited += 50) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    opened = HistoryStore::open(db_dir);
  }
  MQ_ASSIGN_OR_RETURN(auto store, std::move(opened));
  MQ_RETURN_IF_ERROR(store->append(run));
  MQ_ASSIGN_OR_RETURN(auto runs, store->runs(since_ms));
  return analyse_trends(runs, persistence_runs, run.model);
}

}  // namespace moonquota::history
