#include "report/inspect/inspect_run.hpp"

#include <utility>

#include "inspect/snapshot_diff.hpp"
#include "inspect/snapshot_fingerprint.hpp"
#include "inspect/snapshot_select.hpp"
#include "inspect/snapshot_stats.hpp"
#include "inspect/survival_points.hpp"
#include "inspect/verify.hpp"
#include "report/inspect/fingerprint_report.hpp"
#include "report/inspect/inspect_diff_report.hpp"
#include "report/inspect/inspect_objects_report.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "report/inspect/inspect_verify_report.hpp"
#include "report/inspect/survival_report.hpp"
#include "restore/promote_survival.hpp"
#include "restore/survival.hpp"

namespace moonquota::report {

namespace {

using util::Status;

// An error met while reading the selected snapshot names it: its id and, unless the message
// already holds it, its directory (which holds the store path).
Status naming_snapshot(const Status& status, const inspect::SelectedSnapshot& sel) {
  if (status.ok()) return status;
  const bool has_dir = !sel.snapshot_dir.empty() && status.message().find(sel.snapshot_dir) != std::string::npos;
  return status.with_context("snapshot " + sel.snapshot_id + (has_dir ? std::string() : " in " + sel.snapshot_dir));
}

template <typename T>
util::Result<T> naming_snapshot(util::Result<T> result, const inspect::SelectedSnapshot& sel) {
  if (result.ok()) return result;
  return naming_snapshot(result.status(), sel);
}

struct Prepared {
  InspectContext context;
  restore::ScanOptions scan;
  restore::RestoreOptions restore;
};

util::Result<Prepared> prepare(source::ObjectStore& store, const InspectRequest& request) {
  Prepared p;
  p.context.restore_time_ms = request.restore_time_ms;
  MQ_ASSIGN_OR_RETURN(p.context.selected, inspect::select_snapshot(store, request.selection));
  p.scan.restore_time_ms = p.context.restore_time_ms;
  p.scan.max_payload_bytes = request.max_payload_bytes;
  p.scan.progress = request.progress;
  p.restore.restore_time_ms = p.context.restore_time_ms;
  p.restore.threads = request.threads;
  p.restore.max_payload_bytes = request.max_payload_bytes;
  return p;
}

void decide_verdict(source::ObjectStore& store, Prepared& p, const restore::ScannedSnapshot& snap) {
  p.context.verdict = inspect::master_verdict(store, p.context.selected, snap.master_rejection.value_or(""), p.restore);
  p.context.verdict.metadata_checked = snap.shards_decoded && !snap.stopped_early;
}

util::Result<InspectOutcome> run_stats_command(source::ObjectStore& store, const InspectRequest& request,
                                               std::ostream& out) {
  MQ_ASSIGN_OR_RETURN(Prepared p, prepare(store, request));
  const auto command = request.command;
  const auto format = request.format;
  const auto by = request.top_by;
  if (command == InspectCommand::segments || command == InspectCommand::tasks) {
    // Every shard is decoded although these reports do not list objects: the master's verdict
    // they print must be the one quota-rebuild gives (a corrupt shard rejects the snapshot).
    MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot snap,
                        naming_snapshot(restore::scan_snapshot(store, p.context.selected.snapshot_dir,
                                                               p.context.selected.snapshot_id, p.scan, {}),
                                        p.context.selected));
    decide_verdict(store, p, snap);
    if (command == InspectCommand::segments) render_segments(p.context, snap, format, out);
    if (command == InspectCommand::tasks) render_tasks(p.context, snap, format, out);
    return InspectOutcome{};
  }
  inspect::StatsOptions stats;
  stats.biggest_per_tenant = command == InspectCommand::tenants ? request.biggest : 0;
  stats.top_objects = command == InspectCommand::top && request.top_what == TopWhat::objects ? request.top_n : 0;
  stats.rank_by = by;
  MQ_ASSIGN_OR_RETURN(
      inspect::StatsScan scan,
      naming_snapshot(inspect::scan_stats(store, p.context.selected.snapshot_dir, p.context.selected.snapshot_id,
                                          p.scan, stats, request.threads),
                      p.context.selected));
  decide_verdict(store, p, scan.snapshot);
  if (command == InspectCommand::summary)
    render_summary(p.context, scan, inspect::summarize_snapshot(scan), format, out);
  if (command == InspectCommand::tenants) render_tenants(p.context, scan, format, out);
  if (command == InspectCommand::top && request.top_what == TopWhat::objects) {
    render_top_objects(p.context, scan, by, format, out);
  }
  if (command == InspectCommand::top && request.top_what == TopWhat::tenants) {
    render_top_tenants(p.context, scan, by, request.top_n, format, out);
  }
  return InspectOutcome{};
}

util::Result<InspectOutcome> run_fingerprint(source::ObjectStore& store, const InspectRequest& request,
                                             std::ostream& out) {
  MQ_ASSIGN_OR_RETURN(Prepared p, prepare(store, request));
  inspect::FingerprintOptions options;
  options.threads = request.threads;
  options.max_payload_bytes = request.max_payload_bytes;
  options.progress = request.progress;
  MQ_ASSIGN_OR_RETURN(
      inspect::SnapshotFingerprint fp,
      naming_snapshot(inspect::fingerprint_snapshot(store, p.context.selected, options), p.context.selected));
  render_fingerprint(fp, request.format, out);
  return InspectOutcome{};
}

util::Result<InspectOutcome> run_listing_command(source::ObjectStore& store, const InspectRequest& request,
                                                 std::ostream& out) {
  MQ_ASSIGN_OR_RETURN(Prepared p, prepare(store, request));
  const bool dump = request.command == InspectCommand::dump;
  const inspect::ObjectFilter filter = dump ? inspect::ObjectFilter{} : request.filter;
  // The header (segments, tasks, discarded replicas) first: the verdict and `dump` need it.
  restore::ScanOptions header_options = p.scan;
  header_options.decode_shards = false;
  header_options.keep_allocator_blobs = dump;
  const auto& sel = p.context.selected;
  MQ_ASSIGN_OR_RETURN(
      restore::ScannedSnapshot header,
      naming_snapshot(restore::scan_snapshot(store, sel.snapshot_dir, sel.snapshot_id, header_options, {}), sel));
  decide_verdict(store, p, header);
  const auto format = request.format;
  p.scan.decode_tasks = false;
  if (dump) {
    begin_dump(p.context, header, format, out);
    bool first = true;
    MQ_ASSIGN_OR_RETURN(inspect::ListingResult listing,
                        naming_snapshot(inspect::list_objects(store, sel.snapshot_dir, sel.snapshot_id, p.scan, filter,
                                                              0, request.threads,
                                                              [&](const inspect::ListedObject& o) {
                                                                write_dump_object(o, format, first, out);
                                                                first = false;
                                                              }),
                                        sel));
    end_dump(listing, format, out);
  } else {
    ObjectStreamWriter writer(format, out);
    writer.begin(p.context, header);
    MQ_ASSIGN_OR_RETURN(inspect::ListingResult listing,
                        naming_snapshot(inspect::list_objects(store, sel.snapshot_dir, sel.snapshot_id, p.scan, filter,
                                                              request.limit, request.threads,
                                                              [&](const inspect::ListedObject& o) { writer.write(o); }),
                                        sel));
    writer.end(p.context, listing);
  }
  return InspectOutcome{};
}

util::Result<InspectOutcome> run_verify(source::ObjectStore& store, const InspectRequest& request, std::ostream& out) {
  MQ_ASSIGN_OR_RETURN(Prepared p, prepare(store, request));
  inspect::VerifyOptions options;
  options.scan = p.scan;
  options.threads = request.threads;
  options.findings_per_rule = request.max_findings;
  options.temp_dir = request.temp_dir;
  const auto& sel = p.context.selected;
  MQ_ASSIGN_OR_RETURN(
      inspect::VerifyResult result,
      naming_snapshot(inspect::verify_snapshot(store, sel.snapshot_dir, sel.snapshot_id, options, sel.catalog_findings),
                      sel));
  decide_verdict(store, p, result.snapshot);
  render_verify(p.context, result, request.format, out);
  InspectOutcome outcome;
  outcome.found = result.failed();
  outcome.spilled_bytes = result.spilled_bytes;
  return outcome;
}

util::Result<InspectOutcome> run_diff(const InspectStores& stores, const InspectRequest& request, std::ostream& out) {
  restore::StoreSelection a = request.selection;
  restore::StoreSelection b = request.selection;
  a.snapshot = request.snapshot_a;
  b.snapshot = request.snapshot_b;
  if (!request.other_store.empty()) {
    b.store_dir = request.other_store;
    b.catalog = "embedded";  // a Redis catalog describes store A only
  }
  source::ObjectStore& store_b = stores.other != nullptr ? *stores.other : stores.store;
  auto side_a = inspect::select_snapshot(stores.store, a);
  if (!side_a.ok()) return side_a.status().with_context("snapshot A");
  auto side_b = inspect::select_snapshot(store_b, b);
  if (!side_b.ok()) return side_b.status().with_context("snapshot B");
  inspect::DiffOptions options;
  options.scan.restore_time_ms = request.restore_time_ms;
  options.scan.max_payload_bytes = request.max_payload_bytes;
  options.scan.progress = request.progress;
  options.threads = request.threads;
  const inspect::DiffSide da{stores.store, side_a->snapshot_dir, side_a->snapshot_id};
  const inspect::DiffSide db{store_b, side_b->snapshot_dir, side_b->snapshot_id};
  DiffWriter writer(request.format, request.limit, out);
  writer.begin(da, db);
  MQ_ASSIGN_OR_RETURN(
      inspect::DiffResult result,
      inspect::diff_snapshots(da, db, options, [&](const inspect::ObjectChange& c) { writer.write(c); }));
  writer.end(result, request.restore_time_ms);
  InspectOutcome outcome;
  outcome.found = result.differs();
  return outcome;
}

// What a restore does with a candidate it cannot use: rejects it and tries the next. Our own
// guards, a store we could not read and a usage error are not the master's rejection.
bool is_candidate_rejection(const Status& status) {
  const auto code = status.code();
  return code != util::StatusCode::limit_exceeded && code != util::StatusCode::unavailable &&
         code != util::StatusCode::invalid_argument;
}

// The header read of a survival (descriptor and segments, no shards).
util::Result<restore::ScannedSnapshot> read_survival_header(source::ObjectStore& store, const Prepared& p,
                                                            const inspect::SelectedSnapshot& sel) {
  restore::ScanOptions header_options = p.scan;
  header_options.decode_shards = false;
  header_options.decode_tasks = false;
  return restore::scan_snapshot(store, sel.snapshot_dir, sel.snapshot_id, header_options, {});
}

// The points of a survival over the snapshot `header` describes (delays count from its
// created_at) and the scan options that ask for them.
struct SurvivalPlan {
  std::int64_t created_at_ms = 0;
  std::vector<inspect::SurvivalPoint> points;
  restore::SurvivalOptions options;
};

util::Result<SurvivalPlan> plan_survival(const restore::ScannedSnapshot& header, const InspectRequest& request) {
  std::optional<std::int64_t> created_at;
  if (header.descriptor) created_at = header.descriptor->created_at_ms;
  SurvivalPlan plan;
  MQ_ASSIGN_OR_RETURN(plan.points, inspect::resolve_survival_points(request.points, created_at, request.restore_time_ms,
                                                                    header.descriptor_error));
  plan.created_at_ms = *created_at;
  plan.options.lease_model = request.lease_model;
  for (const auto& point : plan.points) plan.options.points_ms.push_back(point.at_ms);
  return plan;
}

// One snapshot read for survival: its plan and the scan.
struct SurvivalRead {
  std::int64_t created_at_ms = 0;
  std::vector<inspect::SurvivalPoint> points;
  restore::SurvivalScan scan;
};

util::Result<SurvivalRead> read_for_survival(source::ObjectStore& store, const Prepared& p,
                                             const InspectRequest& request, const inspect::SelectedSnapshot& sel) {
  SurvivalPlan plan;
  {  // the header read (segments included) is released before the shards are read
    MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot header, read_survival_header(store, p, sel));
    MQ_ASSIGN_OR_RETURN(plan, plan_survival(header, request));
  }
  SurvivalRead read;
  read.created_at_ms = plan.created_at_ms;
  read.points = std::move(plan.points);
  MQ_ASSIGN_OR_RETURN(read.scan, restore::scan_survival(store, sel.snapshot_dir, sel.snapshot_id, p.scan, plan.options,
                                                        request.threads));
  return read;
}

// Why a restore rejects a snapshot that decodes (a non-OK segment at 3b5a5941), or empty.
std::string decodable_rejection(const SurvivalRead& read, const Prepared& p) {
  const auto& rejection = read.scan.snapshot.master_rejection;
  return rejection && !p.restore.fixed_master ? *rejection : std::string();
}

// The restore path reads the snapshot a restore restores, as quota-rebuild does: the catalog's
// latest or, when a restore rejects it, the next candidate it accepts (an explicit --snapshot or
// --snapshot-dir has no fallback). The master verdict of the header then names the rejections and
// the snapshot restored; `read_id` is the snapshot every point restores.
util::Result<SurvivalRead> choose_survival_candidate(source::ObjectStore& store, Prepared& p,
                                                     const InspectRequest& request, std::string& read_id) {
  const auto& latest = p.context.selected;
  auto first = read_for_survival(store, p, request, latest);
  if (first.ok()) decide_verdict(store, p, first->scan.snapshot);
  const std::string first_rejection = first.ok()                               ? decodable_rejection(*first, p)
                                      : is_candidate_rejection(first.status()) ? first.status().message()
                                                                               : "";
  if (first_rejection.empty() || !latest.from_catalog_latest) {
    if (first.ok()) read_id = latest.snapshot_id;  // read as given: the verdict says what a master does
    return naming_snapshot(std::move(first), latest);
  }
  inspect::MasterVerdict verdict;
  verdict.rejection = first_rejection;
  for (std::size_t c = 1; c < latest.candidates.size(); ++c) {
    inspect::SelectedSnapshot candidate = latest;
    candidate.snapshot_id = latest.candidates[c];
    candidate.snapshot_dir = latest.catalog_root + candidate.snapshot_id;
    auto next = read_for_survival(store, p, request, candidate);
    if (!next.ok() && !is_candidate_rejection(next.status())) return naming_snapshot(std::move(next), candidate);
    const std::string rejection = next.ok() ? decodable_rejection(*next, p) : next.status().message();
    verdict.fallback.push_back({candidate.snapshot_id, rejection.empty(), rejection});
    if (rejection.empty()) {
      verdict.restored_id = candidate.snapshot_id;
      p.context.verdict = verdict;
      read_id = candidate.snapshot_id;
      return next;
    }
  }
  // Every candidate is rejected: the master starts EMPTY. A latest that decodes is still shown
  // (its verdict says EMPTY and read_id stays empty); one that does not is the error.
  if (first.ok()) {
    p.context.verdict = verdict;
    return first;
  }
  return naming_snapshot(
      Status::corruption(first.status().message() + "; a restore rejects every other candidate too (" +
                         std::to_string(latest.candidates.size()) +
                         " in all: snapshot-inspect verify names each reason), so the master starts EMPTY and keeps "
                         "nothing at any point"),
      latest);
}

util::Result<InspectOutcome> run_survival(source::ObjectStore& store, const InspectRequest& request,
                                          std::ostream& out) {
  const bool promote = request.promote;
  InspectRequest selected_request = request;
  if (promote && selected_request.selection.snapshot.empty()) selected_request.selection.snapshot = "latest";
  MQ_ASSIGN_OR_RETURN(Prepared p, prepare(store, selected_request));
  if (!promote) {
    std::string read_id;
    MQ_ASSIGN_OR_RETURN(SurvivalRead read, choose_survival_candidate(store, p, request, read_id));
    SurvivalReport report = build_survival_report(p.context, read.scan, read.points, request.lease_model,
                                                  read.created_at_ms, request.restore_time_ms);
    report.restored_snapshot_id = read_id;
    render_survival(report, read.scan.snapshot, request.format, out);
    return InspectOutcome{};
  }
  // The promotion path bootstraps from the latest snapshot only, as a standby does (no fallback).
  const auto& sel = p.context.selected;
  MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot header, naming_snapshot(read_survival_header(store, p, sel), sel));
  MQ_ASSIGN_OR_RETURN(SurvivalPlan plan, plan_survival(header, request));
  restore::ReplayOptions replay;
  replay.until_seq = request.until_seq;
  MQ_ASSIGN_OR_RETURN(
      restore::PromoteSurvival survival,
      restore::survive_promotion(store, selected_request.selection, request.oplog, p.restore, replay, plan.options));
  p.context.verdict_applies = false;
  const SurvivalReport report = build_promote_survival_report(p.context, survival, plan.points, request.lease_model,
                                                              plan.created_at_ms, request.restore_time_ms);
  render_survival(report, header, request.format, out);
  return InspectOutcome{};
}

}  // namespace

std::optional<InspectCommand> parse_inspect_command(const std::string& name) {
  static const std::vector<std::pair<std::string, InspectCommand>> k_commands = {
      {"summary", InspectCommand::summary},
      {"tenants", InspectCommand::tenants},
      {"objects", InspectCommand::objects},
      {"top", InspectCommand::top},
      {"segments", InspectCommand::segments},
      {"tasks", InspectCommand::tasks},
      {"verify", InspectCommand::verify},
      {"diff", InspectCommand::diff},
      {"dump", InspectCommand::dump},
      {"survival", InspectCommand::survival},
      {"fingerprint", InspectCommand::fingerprint}};
  for (const auto& [n, c] : k_commands) {
    if (n == name) return c;
  }
  return std::nullopt;
}

util::Result<InspectOutcome> run_inspect(const InspectStores& stores, const InspectRequest& request,
                                         std::ostream& out) {
  switch (request.command) {
    case InspectCommand::verify: return run_verify(stores.store, request, out);
    case InspectCommand::diff: return run_diff(stores, request, out);
    case InspectCommand::survival: return run_survival(stores.store, request, out);
    case InspectCommand::fingerprint: return run_fingerprint(stores.store, request, out);
    case InspectCommand::objects:
    case InspectCommand::dump: return run_listing_command(stores.store, request, out);
    default: return run_stats_command(stores.store, request, out);
  }
}

}  // namespace moonquota::report
