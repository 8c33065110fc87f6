#!/usr/bin/env bash
# The generated bash and zsh completion (tools/completion.cpp, written by the build into
# <build>/completions): every option that a tool's --help lists (and each subcommand's --help)
# is in both scripts, with no list kept by hand, and bash really completes: a subcommand, the
# choices of --format (also as --format=), a positional's choices, and files for a path flag.
# Usage: completion_test.sh BUILD_DIR
set -uo pipefail
build="$1"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/common.sh"
require_programs bash

# The long and short option names a --help text lists (lines starting with blanks then '-').
help_options() { grep -oE '^  +(-[A-Za-z0-9](,| )|--[A-Za-z0-9][A-Za-z0-9-]*)' | grep -oE -- '-{1,2}[A-Za-z0-9][A-Za-z0-9-]*'; }
# The subcommands a --help text lists (the lines under "Subcommands:").
help_subcommands() { awk '/^Subcommands:/ {on = 1; next} on && /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}'; }

for tool in "${tools[@]}"; do
  bin="$build/tools/$tool"
  bash_script="$build/completions/bash/$tool"
  zsh_script="$build/completions/zsh/_$tool"
  [[ -s "$bash_script" && -s "$zsh_script" ]] || { fail "$tool: no generated completion in $build/completions"; continue; }
  cmp -s <("$bin" --completion bash) "$bash_script" || fail "$tool: $bash_script is not what --completion bash prints now"
  bash -n "$bash_script" || fail "$tool: $bash_script is not valid bash"
  if command -v zsh >/dev/null 2>&1; then
    zsh -n "$zsh_script" || fail "$tool: $zsh_script is not valid zsh"
  fi
  help="$("$bin" --help)"
  checked=0
  for option in $(help_options <<<"$help") $(help_subcommands <<<"$help"); do
    grep -qwe "$option" "$bash_script" || fail "$tool: $option (in --help) is not in the bash completion"
    grep -qwe "$option" "$zsh_script" || fail "$tool: $option (in --help) is not in the zsh completion"
    checked=$((checked + 1))
  done
  for sub in $(help_subcommands <<<"$help"); do
    # The options bash offers after the subcommand: the options='...' line of its level.
    offered="$(awk -v level="    \"$sub\")" '$0 == level {getline; print; exit}' "$bash_script")"
    [[ -n "$offered" ]] || fail "$tool $sub: no level for it in the bash completion"
    for option in $("$bin" "$sub" --help | help_options); do
      grep -qwe "$option" <<<"$offered" || fail "$tool $sub: $option is not offered after $sub by the bash completion"
      checked=$((checked + 1))
    done
  done
  ((checked >= 8)) || fail "$tool: only $checked options found in --help (has its format changed?)"
  echo "$tool: $checked options and subcommands of --help are in both scripts"
done

# complete SCRIPT WORD...: what bash completes for the last word (may be empty) after the others.
complete_words() {
  local script="$1"; shift
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); fn=$(complete -p "$1" | awk "{print \$3}"); "$fn"; echo "${COMPREPLY[*]}"' \
    _ "$script" "$@"
}
expect() {  # expect "GOT" "WANTED" "WHAT"
  [[ "$1" == "$2" ]] || fail "$3: completed [$1], expected [$2]"
}
c="$build/completions/bash"
expect "$(complete_words "$c/snapshot-inspect" snapshot-inspect su)" "summary survival" "snapshot-inspect su<TAB>"
expect "$(complete_words "$c/snapshot-inspect" snapshot-inspect --store /x to)" "top" "snapshot-inspect --store /x to<TAB>"
expect "$(complete_words "$c/snapshot-inspect" snapshot-inspect top "")" "objects tenants" "snapshot-inspect top <TAB>"
expect "$(complete_words "$c/snapshot-inspect" snapshot-inspect top --by "")" "size charge" "snapshot-inspect top --by <TAB>"
expect "$(complete_words "$c/snapshot-inspect" snapshot-inspect verify --format "")" "text json ndjson html" \
  "snapshot-inspect verify --format <TAB> (a shared flag after the command)"
expect "$(complete_words "$c/quota-rebuild" quota-rebuild --format "")" "text json prom" "quota-rebuild --format <TAB>"
expect "$(complete_words "$c/quota-rebuild" quota-rebuild --format = j)" "json" "quota-rebuild --format=j<TAB>"
expect "$(complete_words "$c/quota-rebuild" quota-rebuild --pol)" "--policy --policy-etcd" "quota-rebuild --pol<TAB>"
expect "$(complete_words "$c/quota-rebuild" quota-rebuild --threads "")" "" "quota-rebuild --threads <TAB> (a number)"
expect "$(complete_words "$c/quota-reconcile" quota-reconcile --color "")" "auto always never" "quota-reconcile --color <TAB>"
expect "$(complete_words "$c/quota-reconcile" quota-reconcile hi)" "history" "quota-reconcile hi<TAB>"
expect "$(complete_words "$c/oplog-inspect" oplog-inspect "")" "verify summary dump export lag" "oplog-inspect <TAB>"
expect "$(complete_words "$c/oplog-inspect" oplog-inspect --format json d)" "dump" "oplog-inspect --format json d<TAB>"
files="$(cd "$(dirname "$0")" && complete_words "$c/quota-rebuild" quota-rebuild --policy completion_te)"
expect "$files" "completion_test.sh" "quota-rebuild --policy completion_te<TAB> (a file)"
# zsh, in an interactive zsh on a pseudo-terminal: option values, option names, subcommands.
if command -v zsh >/dev/null 2>&1; then
  z="$build/completions/zsh"
  zsh -f "$here/zsh_complete.zsh" "$z" 'snapshot-inspect top --by ' charge size || fail "zsh: snapshot-inspect top --by <TAB>"
  zsh -f "$here/zsh_complete.zsh" "$z" 'quota-rebuild --form' '--format=' || fail "zsh: quota-rebuild --form<TAB>"
  zsh -f "$here/zsh_complete.zsh" "$z" 'snapshot-inspect su' 'summary' 'survival' || fail "zsh: snapshot-inspect su<TAB>"
  zsh -f "$here/zsh_complete.zsh" "$z" 'oplog-inspect ' 'verify' 'export' || fail "zsh: oplog-inspect <TAB>"
else
  [[ "${CI:-}" == "true" ]] && fail "zsh is missing (scripts/setup.sh installs it)"
  echo "zsh missing: its completion is not run"
fi
finish
