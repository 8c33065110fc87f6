#!/usr/bin/env bash
# moonquota-bench as an operator runs it: a --work-dir it was given keeps everything that was in
# it (the forged store goes in a new directory under it, removed at the end); a store it cannot
# read is exit 3, bad flags exit 2; SIGTERM while it forges or while a phase runs leaves no store
# and no child behind, and it dies of that signal (exit 143 from bash). No timing is asserted: each
# signal is sent once the step it targets has announced itself on stderr, and a run of 1M objects
# takes seconds past either point on any machine.
#   moonquota_bench_test.sh BUILD_DIR
set -euo pipefail
bench="$1/bench/moonquota-bench"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

work="$tmp/work"; mkdir -p "$work"; echo precious >"$work/notes.txt"
only_notes() { [[ "$(ls -A "$work")" == notes.txt && "$(cat "$work/notes.txt")" == precious ]]; }

"$bench" --objects 2000 --threads 1 --work-dir "$work" --json >"$tmp/out" 2>"$tmp/err" || fail "a small run: exit $?"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["phases"]) == 8 and all(not p.get("error") and p["objects"] == 2000 for p in r["phases"] if p["phase"] in ("naive", "ours")), r' \
  "$tmp/out" || fail "a small run's phases"
only_notes || fail "the work directory changed: $(ls -A "$work")"

rc=0; "$bench" --store "$tmp/nothing-here" --threads 1 >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 3 ]] && grep -q "no snapshot in $tmp/nothing-here" "$tmp/out" || fail "an unreadable store: exit $rc"
for args in "--threads 99999" "--phase bogus --store $tmp" "--bogus"; do
  # shellcheck disable=SC2086  # the flags split on spaces
  rc=0; "$bench" $args >/dev/null 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || fail "$args: exit $rc"
done

# interrupted_at PATTERN: SIGTERM once stderr shows PATTERN; exit 143, nothing left behind.
interrupted_at() {
  "$bench" --objects 1000000 --threads 2 --work-dir "$work" >/dev/null 2>"$tmp/err" &
  local pid=$! rc=0 waited=0
  until grep -q "$1" "$tmp/err"; do
    kill -0 "$pid" 2>/dev/null || fail "ended before '$1': $(cat "$tmp/err")"
    sleep 0.05
    waited=$((waited + 1))
    [[ $waited -lt 6000 ]] || { kill -KILL "$pid"; fail "no '$1' in 5 minutes"; }
  done
  kill -TERM "$pid"
  wait "$pid" || rc=$?
  [[ $rc -eq 143 ]] || fail "SIGTERM at '$1': exit $rc"
  only_notes || fail "SIGTERM at '$1' left $(ls -A "$work")"
  ! pgrep -f -- "moonquota-bench --phase .* --store $work" >/dev/null || fail "SIGTERM at '$1' left a phase running"
}
interrupted_at "^forging "
interrupted_at "^phase naive "
echo "moonquota-bench: work directory kept, exit codes, interrupts clean up"
