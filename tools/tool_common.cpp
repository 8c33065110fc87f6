#include "tool_common.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <iostream>

#include "util/thread_pool.hpp"

namespace moonquota::tools {

int exit_code_for(const util::Status& status) {
  switch (status.code()) {
    case util::StatusCode::ok: return k_exit_ok;
    case util::StatusCode::invalid_argument: return k_exit_usage;
    case util::StatusCode::corruption:
    case util::StatusCode::not_found:
    case util::StatusCode::io_error:
    case util::StatusCode::unsupported:
    case util::StatusCode::refused:
    case util::StatusCode::limit_exceeded: return k_exit_bad_input;
    case util::StatusCode::unavailable: return k_exit_service;
    case util::StatusCode::internal: return k_exit_internal;
  }
  return k_exit_internal;
}

int fail(const std::string& tool, const util::Status& status) {
  std::cerr << tool << ": " << status.message() << "\n";
  return exit_code_for(status);
}

void add_verbosity_flags(CLI::App& app, CommonFlags& flags) {
  app.add_flag_function(
      "-v,--verbose", [&flags](std::int64_t n) { flags.verbosity += static_cast<int>(n); },
      "More log output on stderr (repeatable)");
  app.add_flag_function(
      "-q,--quiet", [&flags](std::int64_t n) { flags.verbosity -= static_cast<int>(n); }, "Less log output on stderr");
}

void add_threads_option(CLI::App& app, unsigned& threads) {
  app.add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::Range(0u, k_max_threads));
}

void add_common_flags(CLI::App& app, CommonFlags& flags, const std::vector<std::string>& formats) {
  add_verbosity_flags(app, flags);
  app.add_option("--format", flags.format, "Report format")->check(CLI::IsMember(formats));
  app.add_option("--output", flags.output, "Write the report to FILE atomically instead of stdout");
  add_threads_option(app, flags.threads);
}

report::OutputFormat output_format(const CommonFlags& flags) {
  return report::parse_output_format(flags.format).value_or(report::OutputFormat::text);
}

void setup_logging(const CommonFlags& flags) {
  auto logger = spdlog::stderr_color_mt("moonquota");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  spdlog::level::level_enum level = spdlog::level::warn;
  if (flags.verbosity == 1) level = spdlog::level::info;
  if (flags.verbosity >= 2) level = spdlog::level::debug;
  if (flags.verbosity < 0) level = spdlog::level::err;
  spdlog::set_level(level);
}

util::NetLog net_log() {
  return [](util::NetLogLevel level, const std::string& message) {
    if (level == util::NetLogLevel::info) {
      spdlog::info("{}", message);
    } else {
      spdlog::debug("{}", message);
    }
  };
}

util::Status open_report(const CommonFlags& flags, util::AtomicOutputStream& out) { return out.open(flags.output); }

int finish_report(const std::string& tool, util::AtomicOutputStream& out, int code) {
  if (auto s = out.commit(); !s.ok()) return fail(tool, s);
  return code;
}

util::Status emit_report(const CommonFlags& flags, const std::function<util::Status(std::ostream&)>& write) {
  util::AtomicOutputStream out;
  MQ_RETURN_IF_ERROR(out.open(flags.output));
  MQ_RETURN_IF_ERROR(write(out.stream()));
  return out.commit();
}

util::Status emit_report(const CommonFlags& flags, const std::string& text) {
  return emit_report(flags, [&text](std::ostream& out) {
    out << text;
    return util::Status{};
  });
}

util::Result<std::uint64_t> parse_restore_time(const std::string& text) {
  if (text == "now") {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  }
  std::uint64_t ms = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ms, 10);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return util::Status::invalid_argument("--restore-time '" + text + "' is not 'now' or milliseconds since the epoch");
  }
  return ms;
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? k_exit_ok : k_exit_usage;
  }
  return -1;
}

}  // namespace moonquota::tools
