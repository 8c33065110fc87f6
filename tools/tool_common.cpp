#include "tool_common.hpp"

#include <algorithm>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>

#include "completion.hpp"
#include "util/text_encoding.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::tools {

int fail(const std::string& tool, const util::Status& status) {
  return fail(tool, exit_code_for(status), status.message());
}

int fail(const std::string& tool, int exit_code, const std::string& message) {
  std::cerr << tool << ": " << message << "\n";
  return exit_code;
}

void add_verbosity_flags(CLI::App& app, CommonFlags& flags) {
  app.add_flag_function(
      "-v,--verbose", [&flags](std::int64_t n) { flags.verbosity += static_cast<int>(n); },
      "More log output on stderr (repeatable)");
  app.add_flag_function(
      "-q,--quiet", [&flags](std::int64_t n) { flags.verbosity -= static_cast<int>(n); }, "Less log output on stderr");
}

void add_threads_option(CLI::App& app, unsigned& threads) {
  app.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::Range(0u, k_max_threads));
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
  // spdlog colours the level on a terminal; NO_COLOR asks for none.
  auto logger =
      colour_allowed_by_environment() ? spdlog::stderr_color_mt("moonquota") : spdlog::stderr_logger_mt("moonquota");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  spdlog::level::level_enum level = spdlog::level::warn;
  if (flags.verbosity == 1) level = spdlog::level::info;
  if (flags.verbosity >= 2) level = spdlog::level::debug;
  if (flags.verbosity < 0) level = spdlog::level::err;
  spdlog::set_level(level);
}

util::NetLog net_log(bool attempts_at_debug) {
  return [attempts_at_debug](util::NetLogLevel level, const std::string& message) {
    if (level == util::NetLogLevel::info && !attempts_at_debug) {
      spdlog::info("{}", message);
    } else {
      spdlog::debug("{}", message);
    }
  };
}

namespace {

// Names on stderr the temporaries of a killed earlier run that open() removed or left alone.
void report_stale_temporaries(const util::AtomicOutputStream& out) {
  for (const auto& path : out.stale_removed())
    spdlog::warn("removed a temporary file left by a killed earlier run: {}", util::printable(path));
  for (const auto& what : out.stale_kept())
    spdlog::warn("a temporary file of the output may be left by a killed run: {}", util::printable(what));
}

}  // namespace

util::Status open_report(const CommonFlags& flags, util::AtomicOutputStream& out) {
  if (flags.output.rfind("s3://", 0) == 0) {
    return util::Status::invalid_argument("--output '" + flags.output +
                                          "': reports are written to a local file or stdout (-), never to S3");
  }
  auto status = out.open(flags.output);
  report_stale_temporaries(out);
  return status;
}

int finish_report(const std::string& tool, util::AtomicOutputStream& out, int code) {
  if (auto s = out.commit(); !s.ok()) return fail(tool, s);
  return code;
}

int fail_with_report(const std::string& tool, const CommonFlags& flags, const util::Status& status,
                     const FailureReport& failure) {
  return fail_with_report(tool, flags, exit_code_for(status), status.message(), failure);
}

int fail_with_report(const std::string& tool, const CommonFlags& flags, int exit_code, const std::string& message,
                     const FailureReport& failure) {
  (void)fail(tool, exit_code, message);
  if (flags.format == "prom") (void)emit_report(flags, failure(exit_code, message));
  return exit_code;
}

void report_parse_failure(const CLI::App& app, int argc, char** argv, const std::string& message,
                          const FailureReport& failure) {
  if (message.empty() || parsed_value(app, "--format").value_or("") != "prom") return;
  CommonFlags target;
  target.format = "prom";
  auto output = parsed_value(app, "--output");
  if (!output && appears(argc, argv, "--output")) return;
  target.output = output.value_or("");
  (void)emit_report(target, failure(k_exit_usage, message));
}

int run_guarded(const std::string& tool, int argc, char** argv, int (*run)(int, char**)) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return fail(tool, util::Status::internal(std::string("unexpected exception: ") + e.what()));
  }
}

util::Status emit_report(const CommonFlags& flags, const std::function<util::Status(std::ostream&)>& write) {
  util::AtomicOutputStream out;
  MQ_RETURN_IF_ERROR(open_report(flags, out));
  MQ_RETURN_IF_ERROR(write(out.stream()));
  return out.commit();
}

util::Status emit_report(const CommonFlags& flags, const std::string& text) {
  return emit_report(flags, [&text](std::ostream& out) {
    out << text;
    return util::Status{};
  });
}

namespace {

// CLI11 messages are one line except a few (lists of choices): one line, parts joined by "; ".
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      if (!out.empty() && out.back() != ' ') out += "; ";
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

// The exit codes every tool shares; the tool fills in exit 1, its inputs and its services.
std::string exit_codes_text(const ExitHelp& help) {
  return "Exit codes:\n"
         "  0  success\n"
         "  1  " +
         (help.found.rfind("never", 0) == 0 ? help.found : "the tool ran and found something: " + help.found) +
         "\n"
         "  2  usage error: one line on stderr, \"<tool>: <message>\" (bad, missing, empty or ignored flag)\n"
         "  3  bad input: " +
         help.inputs +
         " that cannot be used\n"
         "  4  a service could not be used: " +
         help.services +
         ", after bounded retries\n"
         "  5  internal error (a bug)\n";
}

}  // namespace

std::string version_line(const std::string& tool) {
  const BuildInfo info = build_info();
  return tool + " " + info.version + " (git " + info.git_describe + ", reads Mooncake formats of " +
         info.upstream_commit + ")";
}

void setup_app(CLI::App& app, const std::string& tool, const ExitHelp& exits, const std::string& example) {
  app.name(tool);
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", version_line(tool),
                       "Print the version and the upstream Mooncake commit whose formats it reads");
  add_completion_option(app);
  app.footer(exit_codes_text(exits) + "Example:\n  " + example + "\n");
}

void set_subcommand_help(CLI::App& app, const std::string& name, const ExitHelp& exits, const std::string& example) {
  app.get_subcommand(name)->footer(exit_codes_text(exits) + "Example:\n  " + example + "\n");
}

void show_shared_flags_in_subcommand_help(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->footer([&app] {
      std::string shared;
      if (auto formatter = std::dynamic_pointer_cast<CLI::Formatter>(app.get_formatter())) {
        shared = formatter->make_groups(&app, CLI::AppFormatMode::Normal);
      }
      return "Shared flags of " + app.get_name() + " (before or after the command):" + shared;
    });
  }
}

CLI::Option* add_repeatable_option(CLI::App& app, const std::string& name, std::vector<std::string>& values,
                                   const std::string& description) {
  CLI::Validator one_value(
      [](std::string& value) -> std::string {
        if (value.empty()) return "value must not be empty";
        if (value.size() > 1 && value.front() == '-') {
          return "value '" + value + "' looks like a flag (give one value per occurrence)";
        }
        return {};
      },
      "");
  // No "=[]" default in --help: an empty list is no default.
  return app.add_option(name, values, description)->allow_extra_args(false)->check(one_value)->default_str("");
}

bool colour_allowed_by_environment() {
  const char* no_colour = std::getenv("NO_COLOR");
  return no_colour == nullptr || *no_colour == '\0';
}

namespace {

// CLI11 lists unexpected arguments last first ("5m --every"): in command-line order instead, and
// a flag that belongs to a subcommand not given says so (audit: `--every` without `serve`).
std::string unexpected_arguments_message(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> extras = app.remaining(true);
  std::vector<std::string> ordered;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const auto it = std::find(extras.begin(), extras.end(), args[i]);
    if (it == extras.end()) continue;
    ordered.push_back(*it);
    extras.erase(it);
  }
  ordered.insert(ordered.end(), extras.begin(), extras.end());
  // CLI11's own words (scripts may match them), in command-line order.
  std::string message =
      ordered.size() == 1 ? "The following argument was not expected:" : "The following arguments were not expected:";
  for (const auto& a : ordered) message += " " + a;
  for (const auto& a : ordered) {
    if (a.rfind("--", 0) != 0) continue;
    const std::string name = a.substr(0, a.find('='));
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_option_no_throw(name) == nullptr || sub->parsed()) continue;
      return message + " (" + name + " is a flag of '" + sub->get_name() + "': " + app.get_name() + " " +
             sub->get_name() + " ... " + name + " VALUE)";
    }
  }
  return message;
}

}  // namespace

namespace {

// CLI11 reads an integer with a leading 0 as octal ("010" is 8): every integer option of `app` and
// its subcommands reads it as decimal, as an operator means it (leading zeros dropped first).
void decimal_integers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    if (option->get_expected_min() == 0 || (type.rfind("UINT", 0) != 0 && type.rfind("INT", 0) != 0)) continue;
    // A transform runs before the option's checks (CLI11 puts it first), so a range sees the decimal.
    option->transform(CLI::Validator(
        [](std::string& v) -> std::string {
          const std::size_t sign = !v.empty() && (v[0] == '+' || v[0] == '-') ? 1 : 0;
          std::size_t first = sign;
          while (first + 1 < v.size() && v[first] == '0' && v[first + 1] >= '0' && v[first + 1] <= '9') ++first;
          if (first > sign) v.erase(sign, first - sign);
          return {};
        },
        "", "decimal"));
  }
  for (CLI::App* sub : app.get_subcommands({})) decimal_integers(*sub);
}

}  // namespace

int parse_command_line(CLI::App& app, int argc, char** argv, std::string* error) {
  decimal_integers(app);
  // CLI11 reads "--name=" (nothing after '=') as "--name" and takes the next argument as its
  // value, swallowing a flag: it is "--name" with the empty value, as `--name ""` is.
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i > 0 && arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=' && arg.find('=') == arg.size() - 1) {
      args.push_back(arg.substr(0, arg.size() - 1));
      args.emplace_back();
    } else {
      args.push_back(arg);
    }
  }
  std::vector<char*> pointers;
  for (auto& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  try {
    app.parse(static_cast<int>(args.size()), pointers.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --help-all, --version
      return app.exit(e) == 0 ? k_exit_ok : k_exit_usage;
    }
    const std::string message = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr
                                    ? unexpected_arguments_message(app, args)
                                    : one_line(e.what());
    std::cerr << app.get_name() << ": " << message << "\n";
    if (error != nullptr) *error = message;
    // An option's own action that failed (--completion's write) carries its exit code.
    if (e.get_name() == "RuntimeError") return e.get_exit_code();
    return k_exit_usage;
  }
  return -1;
}

std::optional<std::string> parsed_value(const CLI::App& app, const std::string& name) {
  const CLI::Option* option = app.get_option_no_throw(name);
  if (option == nullptr || option->results().empty()) return std::nullopt;
  return option->results().back();
}

CLI::Validator epoch_ms_check() {
  constexpr std::string_view k_max = "253402300799999";  // 9999-12-31T23:59:59.999Z
  return CLI::Validator(
      [k_max](std::string& v) -> std::string {
        const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
        const std::string_view trimmed = std::string_view(v).substr(std::min(v.find_first_not_of('0'), v.size()));
        if (digits && (trimmed.size() < k_max.size() || (trimmed.size() == k_max.size() && trimmed <= k_max))) {
          v = trimmed.empty() ? "0" : std::string(trimmed);  // CLI11 reads a leading 0 as octal
          return {};
        }
        return "'" + v + "' is not an instant in ms since the epoch (decimal digits, at most " + std::string(k_max) +
               ")";
      },
      "MS");
}

std::string cluster_label(const CLI::App& app) {
  if (auto cluster = parsed_value(app, "--cluster"); cluster && !cluster->empty()) return *cluster;
  if (auto id = parsed_value(app, "--cluster-id"); id && !id->empty()) return *id;
  return "default";
}

bool appears(int argc, char** argv, const std::string& name) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == name || arg.rfind(name + "=", 0) == 0) return true;
  }
  return false;
}

std::string first_given(const std::vector<const CLI::Option*>& options) {
  for (const CLI::Option* option : options) {
    if (option != nullptr && option->count() > 0) return option->get_name();
  }
  return {};
}

}  // namespace moonquota::tools
