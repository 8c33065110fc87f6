// Shared by the survival_*.cpp files only (callers include survival_report.hpp): the phrases the
// text and HTML renderers both write (survival_phrases.cpp) and one renderer per format, which
// render_survival picks from.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/inspect/survival_report.hpp"

namespace moonquota::report {

[[nodiscard]] std::string survival_dec(util::u128 v);
// "2024-05-01 12:00:00.000 UTC".
[[nodiscard]] std::string survival_utc_text(std::uint64_t ms);
[[nodiscard]] std::string survival_path_text(const SurvivalReport& r);
[[nodiscard]] const char* survival_lease_text(restore::LeaseModel model);
// Why the promoted master holds less than the bootstrap and the OpLog give it; empty: it does not.
[[nodiscard]] std::string survival_promotion_note(const SurvivalPointRows& p);
// "5s", "beyond 1h" (not within the points), "n/a" (no reference: EMPTY at every point).
[[nodiscard]] std::string survival_gone_text(const std::optional<std::int64_t>& ms, const TenantDecay& d,
                                             const SurvivalReport& r);
// "0", "5s (EMPTY before)", "none: EMPTY at every point".
[[nodiscard]] std::string survival_reference_text(const TenantDecay& d);
[[nodiscard]] std::string survival_point_label(const inspect::SurvivalPoint& p);
// objects kept, bytes kept, charged bytes, objects dropped, bytes dropped, share kept.
void survival_add_amount_cells(std::vector<std::string>& cells, const SurvivalRow& row);

void render_survival_text(const SurvivalReport& r, const restore::ScannedSnapshot& snap, std::ostream& out);
void render_survival_json(const SurvivalReport& r, const restore::ScannedSnapshot& snap, std::ostream& out);
void render_survival_ndjson(const SurvivalReport& r, std::ostream& out);
void render_survival_html(const SurvivalReport& r, std::ostream& out);

}  // namespace moonquota::report
