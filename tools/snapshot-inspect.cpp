// snapshot-inspect: offline inspection, verification and diff of Mooncake snapshot stores
// (docs/cli/snapshot-inspect.md). Parses flags and runs one command of app/inspect_command.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>

#include "app/inspect_command.hpp"
#include "inspect_flags.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "snapshot-inspect";

bool shows_progress(const mq::tools::CommonFlags& common) {
  return common.verbosity >= 0 && ::isatty(STDERR_FILENO) != 0;
}

// Progress on stderr, only on a terminal and not with -q, at most a few times a second.
std::function<void(std::uint64_t, std::uint64_t)> progress_printer(const mq::tools::CommonFlags& common) {
  if (!shows_progress(common)) return nullptr;
  auto last = std::make_shared<std::atomic<std::int64_t>>(0);
  return [last](std::uint64_t shards, std::uint64_t objects) {
    const auto now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    std::int64_t prev = last->load();
    if (now - prev < 250 || !last->compare_exchange_strong(prev, now)) return;
    std::fprintf(stderr, "\r%s: %llu shards, %llu objects ", k_tool, static_cast<unsigned long long>(shards),
                 static_cast<unsigned long long>(objects));
  };
}

int run(int argc, char** argv) {
  CLI::App app{"Offline inspection, verification and diff of Mooncake master snapshot stores"};
  mq::tools::setup_app(
      app, k_tool,
      {"verify: an error finding; diff: the snapshots differ", "a store, snapshot or OpLog", "S3, etcd or Redis"},
      "snapshot-inspect summary --store snapshots/sample/store");
  mq::tools::CommonFlags common;
  mq::app::InspectArgs args;
  mq::tools::add_inspect_flags(app, args, common);
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  args.command = app.get_subcommands().front()->get_name();
  args.format = mq::tools::output_format(common);
  args.threads = common.threads;
  auto plan = mq::app::plan_inspect(args);
  if (!plan.ok()) return mq::tools::fail(k_tool, plan.status());
  plan->request.progress = progress_printer(common);
  mq::util::AtomicOutputStream output;
  if (auto s = mq::tools::open_report(common, output); !s.ok()) return mq::tools::fail(k_tool, s);
  auto outcome = mq::app::run_inspect_command(*plan, output.stream());
  if (shows_progress(common)) std::fprintf(stderr, "\r\033[K");
  if (!outcome.ok()) return mq::tools::fail(k_tool, outcome.status());
  if (outcome->spilled_bytes) {
    spdlog::info("verify: {} bytes of replica ids spilled to the temporary file", *outcome->spilled_bytes);
  }
  return mq::tools::finish_report(k_tool, output, outcome->exit_code);
}

}  // namespace

int main(int argc, char** argv) { return mq::tools::run_guarded(k_tool, argc, argv, run); }
