// The command-line rules every tool shares (docs/cli/README.md "Command-line rules"), on the real
// binaries: one value per occurrence of a repeatable option, one-line parse errors with the
// failure textfile of --format prom, ignored flags as usage errors, --version, --help, NO_COLOR.
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/master_stand_in_process.hpp"
#include "support/run_tool.hpp"
#include "support/tree_paths.hpp"

namespace moonquota::cli {
namespace {

using test::run_tool;
using test::source_path;

const std::vector<std::string> k_tools = {"quota-rebuild", "quota-reconcile", "snapshot-inspect", "oplog-inspect",
                                          "snapshot-forge"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> reconcile_saved(const std::vector<std::string>& more) {
  return with(test::genuine_r1_metadata_args(),
              with({"--live-json", source_path("testdata/live/r1_small_drift.json")}, more));
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "mq_cli_XXXXXX").string();
    m_path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

// --- item 2: repeatable options take exactly one value per occurrence ----------------------------

TEST(CommandLine, EmptyMasterIsAUsageErrorAndDoesNotSwallowTheNextFlag) {
  TempDir dir;
  const auto out = dir.path() / "reconcile.prom";
  auto run = run_tool("quota-reconcile", with(test::genuine_r1_metadata_args(),
                                              {"--master", "", "--format", "prom", "--output", out.string()}));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "quota-reconcile: --master: value must not be empty\n");
  // --format prom was taken as --format, so the failure textfile says exit 2.
  EXPECT_NE(slurp(out).find("moonquota_reconcile_exit_code{cluster=\"default\"} 2"), std::string::npos) << slurp(out);
}

TEST(CommandLine, StrayArgumentAfterMasterIsNotASecondEndpoint) {
  auto run = run_tool("quota-reconcile",
                      with(test::genuine_r1_metadata_args(), {"--master", "http://127.0.0.1:1", "extra", "--retries",
                                                              "1", "--connect-timeout-ms", "100"}));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("extra"), std::string::npos) << run.err;
  EXPECT_EQ(lines(run.err), 1U) << run.err;
}

TEST(CommandLine, EveryRepeatableOptionRefusesEmptyAndFlagLikeValues) {
  for (const std::string flag : {"--master", "--live-json", "--live-metrics"}) {
    auto empty = run_tool("quota-reconcile", with(test::genuine_r1_metadata_args(), {flag + "="}));
    EXPECT_EQ(empty.exit_code, 2) << flag << ": " << empty.err;
    EXPECT_EQ(empty.err, "quota-reconcile: " + flag + ": value must not be empty\n");
    auto flag_like = run_tool("quota-reconcile", with(test::genuine_r1_metadata_args(), {flag + "=--format"}));
    EXPECT_EQ(flag_like.exit_code, 2) << flag << ": " << flag_like.err;
    EXPECT_EQ(flag_like.err.rfind("quota-reconcile: " + flag + ": value '--format' looks like a flag", 0), 0U)
        << flag_like.err;
  }
}

TEST(CommandLine, RepeatedOptionStillCollectsOneValuePerOccurrence) {
  const std::string json = source_path("testdata/live/r1_small_drift.json");
  auto run = run_tool("quota-reconcile", with(test::genuine_r1_metadata_args(),
                                              {"--live-json", json, "--live-json", json, "--format", "json"}));
  EXPECT_EQ(run.exit_code, 1) << run.err;  // r1_small_drift drifts
  EXPECT_NE(run.out.find("\"samples\": 2"), std::string::npos) << run.out;
}

// --- item 16: one-line parse errors, and the prom failure textfile on exit 2 ---------------------

TEST(CommandLine, ParseErrorsAreOneLinePrefixedWithTheTool) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"quota-rebuild", {"--store", "s", "--no-such-flag"}}, {"quota-reconcile", {"--store", "s", "--no-such-flag"}},
      {"snapshot-inspect", {"summary", "--no-such-flag"}},   {"oplog-inspect", {"verify", "--no-such-flag"}},
      {"snapshot-forge", {"--out", "o", "--no-such-flag"}},
  };
  for (const auto& [tool, args] : runs) {
    auto run = run_tool(tool, args);
    EXPECT_EQ(run.exit_code, 2) << tool;
    EXPECT_EQ(run.err.rfind(tool + ": ", 0), 0U) << tool << ": " << run.err;
    EXPECT_EQ(lines(run.err), 1U) << tool << ": " << run.err;
    EXPECT_NE(run.err.find("--no-such-flag"), std::string::npos) << run.err;
  }
}

TEST(CommandLine, PromParseErrorWritesTheFailureTextfileWhenOutputWasParsed) {
  TempDir dir;
  const auto out = dir.path() / "reconcile.prom";
  auto run = run_tool("quota-reconcile", reconcile_saved({"--format", "prom", "--output", out.string(), "--bogus"}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(lines(run.err), 1U) << run.err;
  const std::string text = slurp(out);
  EXPECT_NE(text.find("moonquota_reconcile_run_success{cluster=\"default\"} 0"), std::string::npos) << text;
  EXPECT_NE(text.find("moonquota_reconcile_exit_code{cluster=\"default\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("--bogus"), std::string::npos) << text;

  // A post-parse usage error (a flag that would be ignored) writes it too.
  const auto out2 = dir.path() / "ignored.prom";
  auto ignored =
      run_tool("quota-reconcile", reconcile_saved({"--format", "prom", "--output", out2.string(), "--retries", "2"}));
  EXPECT_EQ(ignored.exit_code, 2) << ignored.err;
  EXPECT_NE(slurp(out2).find("moonquota_reconcile_exit_code{cluster=\"default\"} 2"), std::string::npos);

  // --output without its path: no file named after the next argument, nothing written.
  auto no_path = run_tool("quota-reconcile", reconcile_saved({"--format", "prom", "--output"}));
  EXPECT_EQ(no_path.exit_code, 2);
  EXPECT_EQ(no_path.out, "");
}

// --- item 17: flags that would be ignored are usage errors ---------------------------------------

struct IgnoredFlag {
  std::string tool;
  std::vector<std::string> args;
  std::string flag;
};

TEST(CommandLine, IgnoredFlagsAreUsageErrorsNamingTheFlag) {
  TempDir dir;
  const std::string store = source_path("snapshots/sample/store");
  const std::string oplog = source_path("testdata/oplog/worked-batch.jsonl");
  const std::string db = (dir.path() / "db").string();
  const auto snap_dir =
      source_path("snapshots/sample/store/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123");
  const std::vector<IgnoredFlag> cases = {
      {"quota-rebuild", {"--store", store, "--redis", "127.0.0.1:1"}, "--redis"},
      {"quota-reconcile", reconcile_saved({"--redis", "127.0.0.1:1"}), "--redis"},
      {"snapshot-inspect", {"summary", "--store", store, "--redis", "127.0.0.1:1"}, "--redis"},
      {"quota-rebuild", {"--snapshot-dir", snap_dir, "--catalog", "embedded"}, "--catalog"},
      {"snapshot-inspect", {"summary", "--snapshot-dir", snap_dir, "--cluster-id", "x"}, "--cluster-id"},
      {"snapshot-inspect", {"summary", "--snapshot-dir", snap_dir, "--snapshot", "latest"}, "--snapshot"},
      {"oplog-inspect",
       {"verify", "--oplog-file", oplog, "--cluster-id", "prod-a", "--from-batch", "7"},
       "--from-batch"},
      {"oplog-inspect", {"summary", "--oplog-file", oplog, "--cluster-id", "prod-a", "--tenant", "t"}, "--tenant"},
      {"quota-reconcile",
       with(test::genuine_r1_metadata_args(), {"--master", "http://127.0.0.1:1", "--sampled-at", "1"}), "--sampled-at"},
      {"quota-reconcile", reconcile_saved({"--no-metrics"}), "--no-metrics"},
      {"quota-reconcile", reconcile_saved({"--retries", "2"}), "--retries"},
      {"quota-reconcile", reconcile_saved({"--interval-ms", "5"}), "--interval-ms"},
      {"quota-reconcile", reconcile_saved({"--retry-backoff-ms", "5"}), "--retry-backoff-ms"},
      {"quota-reconcile", reconcile_saved({"--persistence-runs", "2"}), "--persistence-runs"},
      {"quota-reconcile", reconcile_saved({"--format", "json", "--color", "always"}), "--color"},
      {"quota-reconcile", {"--store", store, "history", "--db", db}, "--store"},
      {"snapshot-forge",
       {"--oplog-type-literal", "--out", (dir.path() / "f1").string(), source_path("snapshots/sample/scenario.json")},
       "--oplog-type-literal"},
      {"snapshot-forge",
       {"--large", "10", "--oplog-export", (dir.path() / "x.jsonl").string(), "--out", (dir.path() / "f2").string()},
       "--oplog-export"},
  };
  for (const auto& c : cases) {
    auto run = run_tool(c.tool, c.args);
    EXPECT_EQ(run.exit_code, 2) << c.tool << " " << c.flag << ": " << run.err << run.out.substr(0, 200);
    EXPECT_EQ(run.err.rfind(c.tool + ": ", 0), 0U) << run.err;
    EXPECT_NE(run.err.find(c.flag), std::string::npos) << c.tool << " " << c.flag << ": " << run.err;
    EXPECT_EQ(lines(run.err), 1U) << run.err;
    EXPECT_EQ(run.out, "") << c.tool << " " << c.flag;
  }
  EXPECT_FALSE(std::filesystem::exists(db)) << "history with an audit flag must not open the store";
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "f2")) << "the refused forge run wrote nothing";
}

// --- item 20: --version, --help, NO_COLOR ----------------------------------------------------

// Regression: CLI11 read an integer with a leading 0 as octal (--tolerance-bytes 010 was 8, 08 an
// error) and checked a range against that octal value (--threads 0300 passed as 192).
TEST(CommandLine, IntegersWithLeadingZerosAreDecimal) {
  const std::string r1 = "snapshots/genuine-live/r1_quiescent_orphan/";
  const std::vector<std::string> audit = {
      "--store",     source_path(r1 + "store"),         "--policy", source_path(r1 + "policy.yaml"),
      "--live-json", source_path(r1 + "api_list.json"), "--format", "json"};
  for (const auto& [given, value] :
       std::vector<std::pair<std::string, std::string>>{{"010", "10"}, {"08", "8"}, {"0", "0"}, {"000", "0"}}) {
    const auto run = run_tool("quota-reconcile", with(audit, {"--tolerance-bytes", given}));
    EXPECT_LE(run.exit_code, 1) << given << ": " << run.err;
    EXPECT_NE(run.out.find("\"tolerance_bytes\": " + value + ","), std::string::npos) << given;
  }
  const auto over = run_tool("quota-rebuild", {"--store", source_path("snapshots/sample/store"), "--threads", "0300"});
  EXPECT_EQ(over.exit_code, 2) << over.err;
  EXPECT_EQ(
      run_tool("quota-rebuild", {"--store", source_path("snapshots/sample/store"), "--threads", "0002"}).exit_code, 0);
}

TEST(CommandLine, VersionNamesTheToolVersionAndUpstreamCommit) {
  for (const auto& tool : k_tools) {
    auto run = run_tool(tool, {"--version"});
    EXPECT_EQ(run.exit_code, 0) << tool << ": " << run.err;
    // "<tool> <version> (git <describe or unknown>, reads Mooncake formats of 3b5a5941)"
    const std::regex line(tool +
                          R"( [0-9]+\.[0-9]+\.[0-9]+ \(git [A-Za-z0-9._+/-]+, reads Mooncake formats of 3b5a5941\)\n)");
    EXPECT_TRUE(std::regex_match(run.out, line)) << tool << ": [" << run.out << "]";
    EXPECT_EQ(run.err, "") << tool;
  }
}

TEST(CommandLine, HelpShowsDefaultsExitCodesAndAnExample) {
  for (const auto& tool : k_tools) {
    auto run = run_tool(tool, {"--help"});
    EXPECT_EQ(run.exit_code, 0) << tool;
    EXPECT_NE(run.out.find("Exit codes:"), std::string::npos) << tool;
    EXPECT_NE(run.out.find("  2  usage error"), std::string::npos) << tool;
    EXPECT_NE(run.out.find("Example:\n  " + tool + " "), std::string::npos) << tool << run.out;
    EXPECT_NE(run.out.find("--version"), std::string::npos) << tool;
    EXPECT_NE(run.out.find("in [0 - 256]=0"), std::string::npos) << tool << ": the --threads default";
  }
  EXPECT_NE(run_tool("quota-reconcile", {"--help"}).out.find("=text"), std::string::npos) << "--format default";
}

// Audit item 20: `--every 5m` without `serve` said "The following arguments were not expected: 5m
// --every" (reversed, and no word of serve).
TEST(CommandLine, AFlagOfASubcommandGivenWithoutItSaysWhoseItIs) {
  auto run = run_tool("quota-reconcile", {"--store", "s", "--master", "http://127.0.0.1:1", "--every", "5m"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(
                "quota-reconcile: The following arguments were not expected: --every 5m (--every is a flag of 'serve': "
                "quota-reconcile serve ... --every VALUE)"),
            std::string::npos)
      << run.err;
  auto stray = run_tool("quota-rebuild", {"--store", "s", "one", "two"});
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_NE(stray.err.find("quota-rebuild: The following arguments were not expected: one two\n"), std::string::npos)
      << stray.err;
}

TEST(CommandLine, OutputToS3IsAUsageError) {
  auto run = run_tool("quota-rebuild",
                      {"--store", test::source_path("snapshots/sample/store"), "--output", "s3://demo/out.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(
      run.err.find("--output 's3://demo/out.json': reports are written to a local file or stdout (-), never to S3"),
      std::string::npos)
      << run.err;
}

TEST(CommandLine, AStoreThatAlmostNamesS3IsAUsageError) {
  // Audit item 19: read as a local path, it only said "no snapshot root 'S3://demo/x/...'".
  for (const std::string store : {"S3://demo/x", "s3:/demo/x"}) {
    auto run = run_tool("quota-rebuild", {"--store", store});
    EXPECT_EQ(run.exit_code, 2) << store << ": " << run.err;
    EXPECT_NE(run.err.find("is neither a local path nor an S3 URL: an S3 location is written s3://BUCKET/PREFIX"),
              std::string::npos)
        << run.err;
  }
}

TEST(CommandLine, SubcommandHelpShowsTheSharedFlags) {
  for (const std::string command : {"summary", "objects", "verify", "diff", "dump"}) {
    auto run = run_tool("snapshot-inspect", {command, "--help"});
    EXPECT_EQ(run.exit_code, 0) << command;
    for (const std::string flag :
         {"--store", "--snapshot-dir", "--format", "--output", "--threads", "--restore-time"}) {
      EXPECT_NE(run.out.find(flag), std::string::npos) << command << " help lacks " << flag << "\n" << run.out;
    }
    EXPECT_EQ(run.out.find("Exit codes:"), run.out.rfind("Exit codes:")) << command << ": exit codes shown once";
    EXPECT_NE(run.out.find("Exit codes:"), std::string::npos) << command;
  }
}

// Runs `command` under script(1), so stdout and stderr are a terminal; returns what it printed.
std::string run_on_terminal(const std::string& command) {
  const std::string shell = "script -qec '" + command + "' /dev/null 2>&1";
  FILE* pipe = ::popen(shell.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  ::pclose(pipe);
  return out;
}

TEST(CommandLine, NoColorTurnsOffTheColouredReportAndLogLevels) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) is not installed";
  std::string command = test::binary_path("tools/quota-reconcile");
  for (const auto& a : reconcile_saved({})) command += " " + a;
  // On a terminal with colour allowed, the drift report and the drift warning are coloured...
  const std::string coloured = run_on_terminal("env -u NO_COLOR " + command);
  ASSERT_NE(coloured.find("drift"), std::string::npos) << coloured;
  EXPECT_NE(coloured.find('\x1b'), std::string::npos) << "expected colour on a terminal";
  // ... and with NO_COLOR set there is not one escape byte.
  const std::string plain = run_on_terminal("env NO_COLOR=1 " + command);
  ASSERT_NE(plain.find("drift"), std::string::npos) << plain;
  EXPECT_EQ(plain.find('\x1b'), std::string::npos) << plain;
}

}  // namespace
}  // namespace moonquota::cli
