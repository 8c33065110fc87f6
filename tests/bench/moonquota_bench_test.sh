#!/usr/bin/env bash
# moonquota-bench as an operator runs it: a --work-dir it was given keeps everything that was in
# it (the forged store goes in a new directory under it, removed at the end); a store it cannot
# read is exit 3, bad flags exit 2; SIGTERM or SIGHUP while it forges or while a phase runs leaves
# no store and no child behind, and it dies of that signal (exit 143, 129 from bash); under nohup
# SIGHUP changes nothing. No timing is asserted: each
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
ph = r["phases"]
assert len(ph) == 10 and all(not p.get("error") and p["objects"] == 2000 for p in ph if p["phase"] in ("naive", "naive-restore", "ours")), r
# the naive walks sum the same charge as ours; naive-restore decompresses what frames does
assert len({p["charged_bytes"] for p in ph if p["phase"] in ("naive", "naive-restore", "ours")}) == 1, r
by = {(p["phase"], p["threads"]): p for p in ph}
assert by[("naive-restore", 1)]["decompressed_bytes"] == by[("frames", 1)]["decompressed_bytes"] > by[("naive", 1)]["decompressed_bytes"], r' \
  "$tmp/out" || fail "a small run's phases"
only_notes || fail "the work directory changed: $(ls -A "$work")"

rc=0; "$bench" --store "$tmp/nothing-here" --threads 1 >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 3 ]] && grep -q "no snapshot in $tmp/nothing-here" "$tmp/out" || fail "an unreadable store: exit $rc"
for args in "--threads 99999" "--phase bogus --store $tmp" "--bogus"; do
  # shellcheck disable=SC2086  # the flags split on spaces
  rc=0; "$bench" $args >/dev/null 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || fail "$args: exit $rc"
done

# signalled_at SIGNAL PATTERN EXPECTED [IGNORED]: sends SIGNAL once stderr shows PATTERN; the run
# ends with EXPECTED and leaves nothing behind. IGNORED: the run starts with SIGNAL ignored (nohup).
# The run forges $objects objects.
signalled_at() {
  local sig="$1" pattern="$2" expected="$3" ignored="${4:-}"
  # Emptied before the start: the child opens (truncates) it only after the fork, and the wait
  # below must never read the previous run's "forging" line and signal a run not yet started
  # (for the ignored case, a subshell that has not yet ignored the signal: it died with 129).
  : >"$tmp/err"
  if [[ -n "$ignored" ]]; then
    (trap '' "$sig"; exec "$bench" --objects "$objects" --threads 2 --work-dir "$work" >/dev/null 2>"$tmp/err") &
  else
    "$bench" --objects "$objects" --threads 2 --work-dir "$work" >/dev/null 2>"$tmp/err" &
  fi
  local pid=$! rc=0 waited=0
  until grep -q "$pattern" "$tmp/err"; do
    kill -0 "$pid" 2>/dev/null || fail "ended before '$pattern': $(cat "$tmp/err")"
    sleep 0.05
    waited=$((waited + 1))
    [[ $waited -lt 6000 ]] || { kill -KILL "$pid"; fail "no '$pattern' in 5 minutes"; }
  done
  kill -"$sig" "$pid"
  wait "$pid" || rc=$?
  [[ $rc -eq $expected ]] || fail "SIG$sig at '$pattern'${ignored:+ (ignored)}: exit $rc, not $expected"
  only_notes || fail "SIG$sig at '$pattern' left $(ls -A "$work")"
  ! pgrep -f -- "moonquota-bench --phase .* --store $work" >/dev/null || fail "SIG$sig at '$pattern' left a phase running"
}
objects=1000000
signalled_at TERM "^forging " 143
signalled_at TERM "^phase naive " 143
signalled_at HUP "^phase frames " 129
objects=300000  # a whole run: smaller, and still its forge and eight phases after the signal
signalled_at HUP "^forging " 0 ignored  # nohup: the run goes on to its end
echo "moonquota-bench: work directory kept, exit codes, signals clean up"
