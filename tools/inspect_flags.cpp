#include "inspect_flags.hpp"

#include "store_flags.hpp"

namespace moonquota::tools {

namespace {

void add_objects_command(CLI::App& app, app::InspectArgs& r) {
  auto* objects = app.add_subcommand("objects", "List objects (NDJSON for piping)");
  objects->add_option("--tenant", r.filter.tenant, "Only this tenant");
  objects->add_option("--key-prefix", r.filter.key_prefix, "Only keys starting with this");
  objects->add_option("--replica-type", r.filter.replica_type,
                      "Some replica of this type (MEMORY, DISK, LOCAL_DISK, DFS, N)");
  objects->add_option("--status", r.filter.status, "Some replica with this status (COMPLETE, PROCESSING, ..., N)");
  objects->add_option("--min-size", r.filter.min_size, "Only objects of at least this size");
  objects->add_option("--group", r.filter.group, "Only this group id (\"\" = ungrouped)");
  objects->add_option("--limit", r.limit, "Stop after N objects")->default_str("all");
}

void add_survival_command(CLI::App& app, app::InspectArgs& r) {
  auto* survival = app.add_subcommand(
      "survival", "What a restore at each point keeps and drops, per tenant; when each tenant's charge is gone");
  auto* at = survival
                 ->add_option("--at", r.at,
                              "Restore points: delays after created_at (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY after now, "
                              "@EPOCH_MS, now (--restore-time); at most 100,000")
                 ->default_str(r.at)
                 ->type_name("POINTS");
  survival
      ->add_option("--at-file", r.at_file,
                   "The restore points from a file: the items of --at, separated by commas or line ends ('#' starts "
                   "a comment); at most 4 MiB")
      ->type_name("FILE")
      ->excludes(at);
  survival
      ->add_option("--path", r.path,
                   "restore (a master restores the snapshot) | promote (a standby bootstraps from it at each point, "
                   "replays the OpLog and is promoted)")
      ->default_str("restore")
      ->check(CLI::IsMember({"restore", "promote"}));
  auto* oplog_etcd = survival->add_option("--oplog-etcd", r.oplog_etcd, "promote: read the OpLog from etcd HOST:PORT");
  survival->add_option("--oplog-file", r.oplog_file, "promote: read the OpLog from an export file")
      ->excludes(oplog_etcd);
  survival->add_option("--until-seq", r.until_seq, "promote: replay the OpLog only up to sequence N");
  survival->add_option("--lease-model", r.lease_model, "upstream | keep (leases ignored at restore)")
      ->default_str("upstream")
      ->check(CLI::IsMember({"upstream", "keep"}));
}

}  // namespace

void add_inspect_flags(CLI::App& app, app::InspectArgs& args, CommonFlags& common) {
  app.require_subcommand(1, 1);
  app.fallthrough(true);
  add_store_flags(app, args.store);
  add_common_flags(app, common, {"text", "json", "ndjson", "html"});
  args.net_log = net_log();
  auto& r = args;
  app.add_subcommand("summary", "Snapshot id, files, objects and replicas by type x status, tenants, segments, tasks");
  app.add_subcommand("tenants", "Per tenant objects, bytes by replica type, charge, biggest objects")
      ->add_option("--biggest", r.biggest, "Biggest objects shown per tenant");
  add_objects_command(app, r);
  auto* top = app.add_subcommand("top", "The N largest objects or tenants (bounded memory)");
  top->add_option("what", r.top_what, "objects | tenants")->check(CLI::IsMember({"objects", "tenants"}));
  top->add_option("--by", r.top_by, "size | charge")->check(CLI::IsMember({"size", "charge"}));
  top->add_option("-n", r.top_n, "How many");
  app.add_subcommand("segments", "Mounted segments: capacity, status, client, allocator totals");
  app.add_subcommand("tasks", "Tasks of the task manager");
  auto* verify = app.add_subcommand("verify", "Every master rule plus deeper consistency checks; exit 1 on errors");
  verify->add_option("--max-findings", r.max_findings, "Findings listed per rule (counts are complete)");
  verify->add_option("--temp-dir", r.temp_dir,
                     "Directory for the unlinked file of spilled replica ids (default $TMPDIR, else /tmp)");
  auto* diff = app.add_subcommand("diff", "Compare two snapshots shard by shard; exit 1 when they differ");
  diff->add_option("ids", r.ids, "ID_A ID_B (one store) or [ID_A [ID_B]] with --other-store");
  diff->add_option("--other-store", r.other_store, "Store of snapshot B");
  diff->add_option("--limit", r.limit, "Changes kept in --format json / shown in text")->default_str("all");
  app.add_subcommand("dump", "The whole snapshot as lossless JSON or NDJSON");
  add_survival_command(app, r);
  app.add_subcommand("fingerprint",
                     "The snapshot's shape, not its data: layouts, keys, framing; a fingerprint_id that changes only "
                     "when the format does");
  show_shared_flags_in_subcommand_help(app);
  // Each command's own exit codes and example (tests/cli/help_examples_test.sh runs every example).
  const std::string inputs = "a store, snapshot or OpLog";
  const std::string services = "S3, etcd or Redis";
  const ExitHelp never{"never (0, or an error)", inputs, services};
  set_subcommand_help(app, "summary", never, "snapshot-inspect summary --store snapshots/sample/store");
  set_subcommand_help(app, "tenants", never, "snapshot-inspect tenants --store snapshots/sample/store --biggest 2");
  set_subcommand_help(app, "objects", never,
                      "snapshot-inspect objects --store snapshots/sample/store --tenant beta-search --limit 3");
  set_subcommand_help(app, "top", never,
                      "snapshot-inspect top tenants --store snapshots/sample/store --by charge -n 3");
  set_subcommand_help(app, "segments", never, "snapshot-inspect segments --store snapshots/sample/store");
  set_subcommand_help(app, "tasks", never, "snapshot-inspect tasks --store snapshots/sample/store");
  set_subcommand_help(app, "verify", {"an error finding (the snapshot breaks a master rule)", inputs, services},
                      "snapshot-inspect verify --store snapshots/sample/store");
  set_subcommand_help(app, "diff", {"the snapshots differ", inputs, services},
                      "snapshot-inspect diff --store snapshots/sample/store --other-store snapshots/sample/store");
  set_subcommand_help(app, "dump", never, "snapshot-inspect dump --store snapshots/spec-worked-example/store");
  set_subcommand_help(app, "fingerprint", never,
                      "snapshot-inspect fingerprint --store snapshots/sample/store --format json");
  set_subcommand_help(app, "survival", never,
                      "snapshot-inspect survival --store snapshots/survival/store --at 0,10s,1h,+30s");
}

}  // namespace moonquota::tools
