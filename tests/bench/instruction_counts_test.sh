#!/usr/bin/env bash
# bench/instruction_counts.sh end to end at a tiny size: every row holds a positive count, the
# ratios are there, the stores it forged are gone afterwards, and bad arguments are exit 2. No
# count is asserted beyond being positive (a measurement, not a test of speed).
#   instruction_counts_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

BUILD_DIR="$build" TMPDIR="$tmp" bash "$src/bench/instruction_counts.sh" --objects 2000 >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/err" >&2; fail "instruction_counts.sh exited $?"; }
for cmd in 'floor \(moonquota-bench\)' 'frames \(moonquota-bench\)' 'naive \(moonquota-bench\)' 'naive-restore \(moonquota-bench\)' 'ours \(moonquota-bench\)' rebuild; do
  grep -Eq "^\| $cmd \| [1-9][0-9]* \| [0-9]+ \| [0-9]+\.[0-9]{2}x \|  \|$" "$tmp/out" || fail "no row for '$cmd'"
done
for cmd in summary verify diff; do
  grep -Eq "^\| $cmd \| [1-9][0-9]* \| [0-9]+ \|  \| [0-9]+\.[0-9]{2}x \|$" "$tmp/out" || fail "no row for '$cmd'"
done
grep -q '^| floor (moonquota-bench) | [0-9]* | [0-9]* | 1.00x |  |$' "$tmp/out" || fail "the floor is not 1.00x"
grep -q '^| summary | [0-9]* | [0-9]* |  | 1.00x |$' "$tmp/out" || fail "summary is not 1.00x"
[[ -z "$(ls -A "$tmp" | grep -v -e '^out$' -e '^err$')" ]] || fail "left behind: $(ls "$tmp")"

# shellcheck source=tests/bench/usage_errors.sh
source "$src/tests/bench/usage_errors.sh"
check_usage_errors "$build" "$src/bench/instruction_counts.sh" "$tmp"
echo "instruction_counts.sh: every row present"
