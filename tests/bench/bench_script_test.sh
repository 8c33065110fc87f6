#!/usr/bin/env bash
# scripts/bench.sh end to end at a tiny size (issue 15): every row of both tables is there with
# numbers, the stores it forged are gone afterwards, and bad arguments are exit 2. Timing is never
# asserted (a benchmark, not a timed test).
#   bench_script_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

BUILD_DIR="$build" TMPDIR="$tmp" bash "$src/scripts/bench.sh" --objects 20000 --oplog-entries 2000 \
  --promote-tail 2000 --no-baseline >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "bench.sh exited $?"; }
num='[0-9]+(\.[0-9]+)?'
for cmd in 'floor \(moonquota-bench\)' 'frames \(moonquota-bench\)' 'naive \(moonquota-bench\)' 'naive-restore \(moonquota-bench\)' 'ours \(moonquota-bench\)' summary rebuild \
  promote reconcile verify survival promote-survival diff; do
  grep -Eq "^\| 20000 \| $cmd \| $num \| $num \| $num \| $num"x" \|" "$tmp/out" || fail "no row for '$cmd'"
done
for cmd in rebuild summary; do
  grep -Eq "^\| 2000 \| $cmd \| ours \| $num \| $num \| $num \| $num \|" "$tmp/out" || fail "no OpLog row for '$cmd'"
done
# The temporary work directory (stores, outputs) is removed.
[[ -z "$(ls -A "$tmp" | grep -v -e '^out$' -e '^err$')" ]] || fail "left behind: $(ls "$tmp")"

# With a --work-dir of the user's: the stores go once measured, --keep keeps them for the next run.
small=(--objects 2000 --oplog-entries 100 --promote-tail 100 --no-baseline --work-dir "$tmp/w")
BUILD_DIR="$build" bash "$src/scripts/bench.sh" "${small[@]}" >/dev/null 2>&1 || fail "bench.sh --work-dir: exit $?"
[[ -z "$(ls "$tmp/w" | grep '^store-')" ]] || fail "--work-dir without --keep kept $(ls "$tmp/w")"
BUILD_DIR="$build" bash "$src/scripts/bench.sh" "${small[@]}" --keep >/dev/null 2>&1 || fail "bench.sh --keep: exit $?"
[[ -f "$tmp/w/store-2000/.bench-objects" && -f "$tmp/w/store-2000-plus1pct/.bench-objects" ]] ||
  fail "--keep did not keep the stores: $(ls "$tmp/w")"
rm -rf "$tmp/w"

# bench/oplog_replay.sh: a measured command that fails ends the script with its error (it was
# timed and printed as a row); its arguments are checked.
fake="$tmp/tools"; mkdir -p "$fake"
ln -s "$build/tools/snapshot-forge" "$build/tools/oplog-inspect" "$fake/"
printf '#!/bin/sh\necho "quota-rebuild: broken on purpose" >&2\nexit 3\n' >"$fake/quota-rebuild"; chmod +x "$fake/quota-rebuild"
rc=0; TOOLS="$fake" BASE_TOOLS=/nonexistent TMPDIR="$tmp" bash "$src/bench/oplog_replay.sh" 1000 1 >"$tmp/out" 2>"$tmp/err" || rc=$?
[[ $rc -eq 1 ]] && grep -q "ours-rebuild: exit 3" "$tmp/err" && grep -q "broken on purpose" "$tmp/err" ||
  fail "oplog_replay.sh with a failing quota-rebuild: exit $rc: $(cat "$tmp/err")"
! grep -q "^| 1000 | rebuild" "$tmp/out" || fail "oplog_replay.sh printed a row for a failed run"
rm -rf "$fake"
for args in "0 1" "1000 0" "abc 1"; do
  rc=0; TOOLS="$build/tools" TMPDIR="$tmp" bash "$src/bench/oplog_replay.sh" $args >/dev/null 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q "is not a positive integer" "$tmp/err" || fail "oplog_replay.sh $args: exit $rc"
done

# shellcheck source=tests/bench/usage_errors.sh
source "$src/tests/bench/usage_errors.sh"
check_usage_errors "$build" "$src/scripts/bench.sh" "$tmp"
echo "bench.sh: every row present"
