// snapshot-golden: golden-snapshot checks for the people who change the master
// (docs/cli/snapshot-golden.md). Parses flags and runs app/golden_command's check or record.
#include <spdlog/spdlog.h>

#include "app/golden_command.hpp"
#include "report/golden/golden_report.hpp"
#include "store_flags.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "snapshot-golden";

struct Flags {
  mq::tools::CommonFlags common;
  mq::app::GoldenArgs golden;
  std::string junit;
};

void add_flags(CLI::App& app, Flags& f) {
  app.require_subcommand(1, 1);
  app.fallthrough(true);
  mq::tools::add_common_flags(app, f.common, {"text", "json", "github"});
  const auto add_dirs = [&f](CLI::App* command) {
    command->add_option("DIR", f.golden.dirs, "Fixture sets or fixture folders")
        ->required()
        ->type_name("DIR")
        ->default_str("");
  };
  auto* check = app.add_subcommand(
      "check", "Check fixtures: the fingerprint, the rebuilt accounts and the master's table against the stored ones");
  add_dirs(check);
  check->add_flag("--strict", f.golden.strict, "A format drift (fingerprint changed, accounts not) fails too");
  check->add_option("--junit", f.junit, "Also write a JUnit XML report to FILE")->type_name("FILE");
  auto* record = app.add_subcommand(
      "record", "Write expected.json and fingerprint.json of fixtures from today's tools, and say what changed");
  add_dirs(record);
  record->add_flag("--force", f.golden.force, "Change the accounts of a fixture whose expected.json holds others");
  mq::tools::show_shared_flags_in_subcommand_help(app);
  const std::string inputs = "a fixture set, a fixture's files or allowed-changes.yaml";
  const std::string services = "S3, etcd or Redis named by a fixture's args";
  mq::tools::set_subcommand_help(app, "check",
                                 {"a fixture failed (unreadable, accounts-drift, master-disagrees; format-drift "
                                  "with --strict)",
                                  inputs, services},
                                 "snapshot-golden check snapshots");
  mq::tools::set_subcommand_help(
      app, "record",
      {"a fixture could not be recorded, or its accounts would change without --force", inputs, services},
      "snapshot-golden record snapshots/sample");
}

mq::report::GoldenCheckFormat check_format(const std::string& name) {
  if (name == "json") return mq::report::GoldenCheckFormat::json;
  if (name == "github") return mq::report::GoldenCheckFormat::github;
  return mq::report::GoldenCheckFormat::text;
}

int run_check(const Flags& f) {
  auto outcome = mq::app::run_golden_check(f.golden);
  if (!outcome.ok()) return mq::tools::fail(k_tool, outcome.status());
  const mq::report::GoldenCheckReport report{outcome->sets, outcome->counts, f.golden.strict, outcome->exit_code};
  auto written = mq::tools::emit_report(f.common, [&](std::ostream& out) {
    mq::report::render_golden_check(report, check_format(f.common.format), out);
    return mq::util::Status{};
  });
  if (!written.ok()) return mq::tools::fail(k_tool, written);
  if (!f.junit.empty()) {
    mq::tools::CommonFlags junit = f.common;
    junit.output = f.junit;
    auto xml = mq::tools::emit_report(junit, [&](std::ostream& out) {
      mq::report::render_golden_junit(report, out);
      return mq::util::Status{};
    });
    if (!xml.ok()) return mq::tools::fail(k_tool, xml.with_context("--junit"));
  }
  return outcome->exit_code;
}

int run_record(const Flags& f) {
  if (f.common.format != "text") {
    return mq::tools::fail(k_tool, mq::util::Status::invalid_argument("record writes --format text only"));
  }
  auto outcome = mq::app::run_golden_record(f.golden);
  if (!outcome.ok()) return mq::tools::fail(k_tool, outcome.status());
  auto written = mq::tools::emit_report(f.common, [&](std::ostream& out) {
    mq::report::render_golden_record(outcome->fixtures, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return mq::tools::fail(k_tool, written);
  return outcome->exit_code;
}

int run(int argc, char** argv) {
  CLI::App app{
      "Golden-snapshot checks: fixture stores, their fingerprints and expected account tables, checked "
      "against today's tools and a master under test"};
  mq::tools::setup_app(app, k_tool,
                       {"a fixture failed, or could not be recorded", "a fixture set or its files",
                        "S3, etcd or Redis named by a fixture's args"},
                       "snapshot-golden check snapshots");
  Flags f;
  add_flags(app, f);
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(f.common);
  f.golden.threads = f.common.threads;
  f.golden.net_log = mq::tools::net_log();
  f.golden.parse_rebuild_args = mq::tools::parse_rebuild_words;
  const std::string command = app.get_subcommands().front()->get_name();
  return command == "check" ? run_check(f) : run_record(f);
}

}  // namespace

int main(int argc, char** argv) { return mq::tools::run_guarded(k_tool, argc, argv, run); }
