#!/usr/bin/env bash
# Every example a tool's --help shows (and so its man page, generated from --help) runs as shown,
# from the source tree: the `Example:` of each tool and of each subcommand.
#
# An example exits 0, or 1 where its help says exit 1 is "found something" (verify, diff). `serve`
# runs until stopped: its example runs for 3 s on a free port (--listen 127.0.0.1:0 instead of the
# example's) and must then stop with 0 on SIGTERM. Scratch output goes to a temporary directory
# (an example writing /tmp/moonquota-* writes there).
# Usage: help_examples_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 TOOLS_DIR SOURCE_DIR" >&2; exit 2; }
tools_dir="$(cd "$1" && pwd)"
cd "$2" || exit 2
export PATH="$tools_dir:$PATH"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# The example lines of one --help text (the lines after "Example:" up to a blank line).
examples_of() { awk '/^Example:/ { on = 1; next } on && /^  / { sub(/^  /, ""); print; next } { on = 0 }'; }

status=0
ran=0
snapshots_before="$(git status --porcelain -- snapshots 2>/dev/null)"
check() {  # check WHERE ALLOWED_EXIT_CODES COMMAND
  local where="$1" allowed="$2" command="$3" rc
  command="${command//\/tmp\/moonquota-/$scratch/moonquota-}"
  if [[ "$command" == *" serve "* ]]; then
    command="${command/--listen 127.0.0.1:9464/--listen 127.0.0.1:0}"
    timeout --preserve-status -s TERM 3 bash -c "$command" >"$scratch/out" 2>"$scratch/err"
  else
    bash -c "$command" >"$scratch/out" 2>"$scratch/err"
  fi
  rc=$?
  ran=$((ran + 1))
  if [[ " $allowed " == *" $rc "* ]]; then
    echo "PASS $where (exit $rc): $command"
  else
    echo "FAIL $where: exit $rc (expected one of: $allowed): $command"
    sed 's/^/    /' "$scratch/err" | head -5
    status=1
  fi
}

help_of() {  # help_of TOOL [SUBCOMMAND]: the --help text
  "$@" --help 2>&1
}

for tool in quota-rebuild quota-reconcile snapshot-inspect oplog-inspect snapshot-forge snapshot-golden; do
  while IFS= read -r example; do check "$tool --help" "0" "$example"; done < <(help_of "$tool" | examples_of)
done
for command in summary tenants objects top segments tasks dump survival fingerprint; do
  while IFS= read -r example; do check "snapshot-inspect $command --help" "0" "$example"; done \
    < <(help_of snapshot-inspect "$command" | examples_of)
done
for command in verify diff; do
  while IFS= read -r example; do check "snapshot-inspect $command --help" "0 1" "$example"; done \
    < <(help_of snapshot-inspect "$command" | examples_of)
done
for command in history serve; do
  while IFS= read -r example; do check "quota-reconcile $command --help" "0" "$example"; done \
    < <(help_of quota-reconcile "$command" | examples_of)
done
# plan and apply talk to a master: their examples run against the master stand-in serving the
# genuine r1 capture (its orphan gamma), in place of the examples' http://127.0.0.1:9003; plan's
# exits 1 (the plan has a step), apply's (a dry run of that plan) 0.
r1=snapshots/genuine-live/r1_quiescent_orphan
"$tools_dir/master-stand-in" --store "$r1/store" --policy "$r1/policy.yaml" --restore-time 1795956296529 \
  >"$scratch/stand-in.url" 2>/dev/null &
stand_in=$!
for _ in $(seq 1 100); do [[ -s "$scratch/stand-in.url" ]] && break; sleep 0.05; done
master_url="$(head -n 1 "$scratch/stand-in.url")"
for entry in "plan 1" "apply 0"; do
  read -r command allowed <<<"$entry"
  while IFS= read -r example; do check "quota-reconcile $command --help" "$allowed" "${example//http:\/\/127.0.0.1:9003/$master_url}"; done \
    < <(help_of quota-reconcile "$command" | examples_of)
done
kill "$stand_in" 2>/dev/null; wait "$stand_in" 2>/dev/null
# record's example records a bundled fixture as it stands: it must change nothing in snapshots/.
for command in check record; do
  while IFS= read -r example; do check "snapshot-golden $command --help" "0" "$example"; done \
    < <(help_of snapshot-golden "$command" | examples_of)
done
if [[ "$(git status --porcelain -- snapshots 2>/dev/null)" != "$snapshots_before" ]]; then
  echo "FAIL a snapshot-golden example changed snapshots/: $(git status --porcelain -- snapshots | head -3)"
  status=1
fi
# Each subcommand shows its own example, not the tool's.
for command in summary tenants objects top segments tasks verify diff dump survival fingerprint; do
  if ! help_of snapshot-inspect "$command" | examples_of | grep -q "^snapshot-inspect $command "; then
    echo "FAIL snapshot-inspect $command --help does not show an example of $command"; status=1
  fi
done
((ran >= 21)) || { echo "FAIL only $ran examples found"; status=1; }
echo "$ran examples run"
exit "$status"
