#include "completion.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include "tool_common.hpp"

namespace moonquota::tools {

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// A word a shell may take as it is inside single quotes and in a word list: no blank, no quote,
// no glob or expansion character.
bool plain_word(const std::string& word) {
  if (word.empty()) return false;
  return std::all_of(word.begin(), word.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) != 0 || std::string_view("._:/+,=@%-").find(c) != std::string_view::npos;
  });
}

// The IsMember set of an option: CLI11 describes it as "{a,b,c}" in the option's type name
// ("TEXT:{a,b,c}"); a value that is not a plain word is left out.
std::vector<std::string> choices_of(const CLI::Option& option) {
  std::vector<std::string> choices;
  const std::string type = option.get_type_name();
  for (std::size_t open = type.find(":{"); open != std::string::npos; open = type.find(":{", open + 1)) {
    const std::size_t close = type.find('}', open);
    if (close == std::string::npos) break;
    std::stringstream set(type.substr(open + 2, close - open - 2));
    std::string choice;
    while (std::getline(set, choice, ',')) {
      if (plain_word(choice)) choices.push_back(choice);
    }
  }
  return choices;
}

CompletionOption option_model(const CLI::Option& option) {
  CompletionOption model;
  for (const auto& name : option.get_snames()) model.names.push_back("-" + name);
  for (const auto& name : option.get_lnames()) model.names.push_back("--" + name);
  model.description = first_line(option.get_description());
  model.takes_value = option.get_type_size_max() > 0 && option.get_expected_max() > 0;
  model.repeatable = option.get_expected_max() > 1 || !model.takes_value;
  model.choices = choices_of(option);
  const std::string type = option.get_type_name();
  const std::string base = type.substr(0, type.find(':'));
  // Numbers, and the typed values our flags name (a duration, survival points, an address, a URL,
  // an instant): nothing to offer, and never file names (audit item 9).
  model.number = base == "INT" || base == "UINT" || base == "FLOAT" || base == "NUMBER" || base == "DURATION" ||
                 base == "POINTS" || base == "ADDRESS" || base == "URL" || base == "TIME";
  return model;
}

bool named(const CompletionCommand& command, const std::string& name) {
  return std::any_of(command.options.begin(), command.options.end(), [&name](const CompletionOption& option) {
    return std::find(option.names.begin(), option.names.end(), name) != option.names.end();
  });
}

CompletionCommand command_model(const CLI::App& app, const CompletionCommand* parent) {
  CompletionCommand model;
  model.name = app.get_name();
  model.description = first_line(app.get_description());
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    CompletionOption item = option_model(*option);
    if (item.names.empty()) {
      model.positionals.push_back(std::move(item));
    } else {
      model.options.push_back(std::move(item));
    }
  }
  // Options of the parent given after the subcommand (CLI11 fallthrough).
  if (parent != nullptr && app.get_fallthrough()) {
    for (const CompletionOption& option : parent->options) {
      if (!named(model, option.names.front())) model.options.push_back(option);
    }
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); })) {
    model.subcommands.push_back(command_model(*sub, &model));
  }
  return model;
}

std::string function_name(const std::string& tool, const std::string& path) {
  std::string name = "_moonquota_" + tool + (path.empty() ? "" : "_" + path);
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

struct Level {
  std::string path;  // subcommand names joined by ' '; "" for the tool itself
  const CompletionCommand* command;
};

void collect_levels(const CompletionCommand& command, const std::string& path, std::vector<Level>& levels) {
  levels.push_back({path, &command});
  for (const auto& sub : command.subcommands)
    collect_levels(sub, path.empty() ? sub.name : path + " " + sub.name, levels);
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

// `"path|a" | "path|b"` for a bash case pattern.
std::string patterns(const std::string& path, const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : " | ") + ("\"" + path + "|" + word + "\"");
  return out;
}

}  // namespace

CompletionCommand completion_model(const CLI::App& app) { return command_model(app, nullptr); }

std::string bash_completion(const std::string& tool, const CompletionCommand& model) {
  std::vector<Level> levels;
  collect_levels(model, "", levels);
  const std::string function = function_name(tool, "");
  std::ostringstream out;
  out << "# bash completion for " << tool << ", generated from its option definitions by `" << tool
      << " --completion bash`: do not edit.\n"
      << function << "() {\n"
      << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cword=$COMP_CWORD\n"
      << "  ((cword > 0)) && prev=\"${COMP_WORDS[cword - 1]}\"\n"
      << "  # --name=value: bash splits the word at '=' (COMP_WORDBREAKS); complete the value of --name.\n"
      << "  if [[ $cur == \"=\" ]]; then\n"
      << "    cur=\"\"\n"
      << "  elif [[ $prev == \"=\" ]] && ((cword >= 2)); then\n"
      << "    prev=\"${COMP_WORDS[cword - 2]}\"\n"
      << "  fi\n"
      << "  # Walk the words before the cursor: the subcommand path and the positionals given at its level.\n"
      << "  local path=\"\" npos=0 skip=0 i word\n"
      << "  for ((i = 1; i < cword; i++)); do\n"
      << "    word=\"${COMP_WORDS[i]}\"\n"
      << "    if [[ $word == \"=\" ]]; then skip=1; continue; fi\n"
      << "    if ((skip)); then skip=0; continue; fi\n"
      << "    case \"$path|$word\" in\n";
  // Options that take a value: the next word is theirs.
  std::vector<std::string> value_patterns;
  for (const auto& level : levels) {
    for (const auto& option : level.command->options) {
      if (option.takes_value) value_patterns.push_back(patterns(level.path, option.names));
    }
  }
  if (!value_patterns.empty()) {
    out << "      ";
    for (std::size_t i = 0; i < value_patterns.size(); ++i) out << (i == 0 ? "" : " | \\\n      ") << value_patterns[i];
    out << ")\n        skip=1\n        continue\n        ;;\n";
  }
  out << "      *\"|-\"*) continue ;;\n";
  for (const auto& level : levels) {
    for (const auto& sub : level.command->subcommands) {
      const std::string next = level.path.empty() ? sub.name : level.path + " " + sub.name;
      out << "      \"" << level.path << "|" << sub.name << "\")\n        path=\"" << next
          << "\"\n        npos=0\n        continue\n        ;;\n";
    }
  }
  out << "    esac\n"
      << "    npos=$((npos + 1))\n"
      << "  done\n"
      << "  # The value of an option.\n"
      << "  case \"$path|$prev\" in\n";
  std::vector<std::string> file_patterns;
  std::vector<std::string> number_patterns;
  for (const auto& level : levels) {
    for (const auto& option : level.command->options) {
      if (!option.takes_value) continue;
      if (option.number) {
        number_patterns.push_back(patterns(level.path, option.names));
      } else if (option.choices.empty()) {
        file_patterns.push_back(patterns(level.path, option.names));
      } else {
        out << "    " << patterns(level.path, option.names) << ")\n        COMPREPLY=($(compgen -W '"
            << join(option.choices) << "' -- \"$cur\"))\n        return 0\n        ;;\n";
      }
    }
  }
  if (!number_patterns.empty()) {
    out << "    ";
    for (std::size_t i = 0; i < number_patterns.size(); ++i) out << (i == 0 ? "" : " | \\\n    ") << number_patterns[i];
    out << ")\n        COMPREPLY=()\n        return 0\n        ;;\n";
  }
  if (!file_patterns.empty()) {
    out << "    ";
    for (std::size_t i = 0; i < file_patterns.size(); ++i) out << (i == 0 ? "" : " | \\\n    ") << file_patterns[i];
    out << ")\n        compopt -o filenames 2>/dev/null\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        << "        return 0\n        ;;\n";
  }
  out << "  esac\n"
      << "  # The options, subcommands and positional values of the level.\n"
      << "  local options=\"\" words=\"\" files=0\n"
      << "  case \"$path\" in\n";
  for (const auto& level : levels) {
    std::vector<std::string> options;
    for (const auto& option : level.command->options)
      options.insert(options.end(), option.names.begin(), option.names.end());
    std::vector<std::string> subcommands;
    for (const auto& sub : level.command->subcommands) subcommands.push_back(sub.name);
    out << "    \"" << level.path << "\")\n"
        << "      options='" << join(options) << "'\n";
    if (!subcommands.empty()) out << "      words='" << join(subcommands) << "'\n";
    const auto& positionals = level.command->positionals;
    for (std::size_t k = 0; k < positionals.size(); ++k) {
      const bool many = positionals[k].repeatable && k + 1 == positionals.size();
      out << "      if ((npos " << (many ? ">=" : "==") << " " << k << ")); then\n";
      if (positionals[k].choices.empty()) {
        out << "        files=1\n";
      } else {
        out << "        words=\"$words " << join(positionals[k].choices) << "\"\n";
      }
      out << "      fi\n";
    }
    out << "      ;;\n";
  }
  out << "  esac\n"
      << "  if [[ $cur == -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
      << "  else\n"
      << "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      << "    if ((files)); then\n"
      << "      compopt -o filenames 2>/dev/null\n"
      << "      COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
      << "    elif [[ -z $words ]]; then\n"
      << "      COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
      << "    fi\n"
      << "  fi\n"
      << "  return 0\n"
      << "}\n"
      << "complete -F " << function << " " << tool << "\n";
  return out.str();
}

namespace {

// `text` inside single quotes, as a zsh word.
std::string zsh_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A description inside an _arguments spec's brackets.
std::string zsh_description(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == '\\' || c == ':') out += '\\';
    out += c;
  }
  return out;
}

// What _arguments offers for a value: the choices, nothing for a number, else file names.
std::string zsh_action(const CompletionOption& option) {
  if (!option.choices.empty()) return "(" + join(option.choices) + ")";
  return option.number ? "" : "_files";
}

void zsh_function(std::ostringstream& out, const std::string& tool, const std::string& path,
                  const CompletionCommand& command) {
  for (const auto& sub : command.subcommands) {
    zsh_function(out, tool, path.empty() ? sub.name : path + " " + sub.name, sub);
  }
  out << function_name(tool, path) << "() {\n";
  const bool has_subcommands = !command.subcommands.empty();
  if (has_subcommands) {
    out << "  local curcontext=\"$curcontext\" state state_descr line\n"
        << "  typeset -A opt_args\n";
  }
  out << "  _arguments " << (has_subcommands ? "-C " : "") << "-s -S";
  for (const auto& option : command.options) {
    for (const auto& name : option.names) {
      std::string spec = option.repeatable ? "*" : "";
      spec += name;
      if (option.takes_value) spec += name.size() == 2 ? "+" : "=";
      spec += "[" + zsh_description(option.description) + "]";
      if (option.takes_value) spec += std::string(option.number ? ":number:" : ":value:") + zsh_action(option);
      out << " \\\n    " << zsh_quote(spec);
    }
  }
  if (has_subcommands) {
    out << " \\\n    " << zsh_quote("1: :->command") << " \\\n    " << zsh_quote("*:: :->args") << "\n";
    out << "  case $state in\n"
        << "    command)\n"
        << "      local -a commands\n"
        << "      commands=(";
    for (const auto& sub : command.subcommands) out << "\n        " << zsh_quote(sub.name + ":" + sub.description);
    out << "\n      )\n"
        << "      _describe -t commands command commands\n"
        << "      ;;\n"
        << "    args)\n"
        << "      case $line[1] in\n";
    for (const auto& sub : command.subcommands) {
      out << "        " << sub.name << ") " << function_name(tool, path.empty() ? sub.name : path + " " + sub.name)
          << " ;;\n";
    }
    out << "      esac\n"
        << "      ;;\n"
        << "  esac\n";
  } else {
    const auto& positionals = command.positionals;
    for (std::size_t k = 0; k < positionals.size(); ++k) {
      const bool many = positionals[k].repeatable && k + 1 == positionals.size();
      const std::string spec = (many ? std::string("*") : std::to_string(k + 1)) + ":" +
                               zsh_description(positionals[k].description) + ":" + zsh_action(positionals[k]);
      out << " \\\n    " << zsh_quote(spec);
    }
    out << "\n";
  }
  out << "}\n\n";
}

}  // namespace

std::string zsh_completion(const std::string& tool, const CompletionCommand& model) {
  std::ostringstream out;
  out << "#compdef " << tool << "\n"
      << "# zsh completion for " << tool << ", generated from its option definitions by `" << tool
      << " --completion zsh`: do not edit.\n\n";
  zsh_function(out, tool, "", model);
  out << function_name(tool, "") << " \"$@\"\n";
  return out.str();
}

void add_completion_option(CLI::App& app) {
  app.add_option_function<std::string>(
         "--completion",
         [&app](const std::string& shell) {
           const CompletionCommand model = completion_model(app);
           std::cout << (shell == "zsh" ? zsh_completion(app.get_name(), model)
                                        : bash_completion(app.get_name(), model));
           std::cout.flush();
           if (!std::cout) throw CLI::RuntimeError("--completion: cannot write the script to stdout", k_exit_bad_input);
           throw CLI::Success();
         },
         "Print the shell completion script (bash or zsh) generated from these options, and exit")
      ->check(CLI::IsMember({"bash", "zsh"}))
      ->trigger_on_parse();
}

}  // namespace moonquota::tools
