#!/bin/sh
# Writes a help2man include file (cmake/ToolFiles.cmake) with a COMMANDS section: each subcommand
# of TOOL with its own positionals and options, as help2man formats `TOOL <command> --help` (the
# shared flags and exit codes that end each of those are on the page already). An empty file for
# a tool without subcommands. Usage: man_commands.sh TOOL HELP2MAN OUTPUT
set -eu
tool=$1 help2man=$2 out=$3
name=$(basename "$tool")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/include"
commands=$("$tool" --help | awk '/^Subcommands:/ {on = 1; next} on && /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}')
if [ -n "$commands" ]; then
  printf '[COMMANDS]\n' >>"$work/include"
  for command in $commands; do
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$tool" "$command" >"$work/wrapper"
    chmod +x "$work/wrapper"
    "$help2man" --no-info --no-discard-stderr --version-string=0 --output="$work/page" "$work/wrapper"
    printf '.SS "%s %s"\n' "$name" "$command" >>"$work/include"
    # From the description to the shared part; section headings dropped, a trailing .PP too.
    awk '/^\.SH DESCRIPTION/ {on = 1; next}
         on && (/^\.SH OPTIONS/ || /^\.SS "Positionals:"/) {next}
         on && (/^Shared flags of / || /^\.SS "Exit codes:"/ || /^\.SH /) {exit}
         on {print}' "$work/page" | sed '${/^\.PP$/d;}' >>"$work/include"
  done
fi
mv "$work/include" "$out"
