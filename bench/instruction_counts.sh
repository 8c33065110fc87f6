#!/usr/bin/env bash
# Instructions per command (valgrind's callgrind, one thread): the ratios of docs/PERFORMANCE.md
# that a shared host's noise cannot move. Wall and CPU time on the 2-core build machine move by
# up to 0.3x between two runs of the same binaries; an instruction count is the same in every
# run, so an A/B of a change to the decoder or to diff reads here first (a change that adds
# cache misses or mispredicted branches shows in time only: confirm with scripts/bench.sh).
#
#   bash bench/instruction_counts.sh [--objects 200000] [--work-dir DIR] [--keep]
#
# Forges a store of N objects and its 1% twin (as scripts/bench.sh does), then counts, each in
# its own process with --threads 1: moonquota-bench's floor, frames, naive, naive-restore and ours
# phases, and
# snapshot-inspect summary, verify, diff (against the twin) and quota-rebuild --restore-time 0.
# Prints a Markdown table: instructions, per object, over the floor's, over summary's.
# Needs valgrind and a build in build/ (BUILD_DIR to use another); about 30 s per 100k objects.
# The two stores are removed at the end unless --keep (a later run with the same --work-dir, or
# scripts/bench.sh with it, reuses kept ones).
# Exit 2: a usage error (a flag without its value too); 3: no build, a --work-dir that is not a
# writable directory, or a store-N in it that no bench script forged (never replaced); 1: a
# command failed under valgrind (its stderr is shown).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
objects=200000
work=""
keep=0
build="${BUILD_DIR:-$here/build}"

# shellcheck source=bench/bench_lib.sh
source "$here/bench/bench_lib.sh"
while [[ $# -gt 0 ]]; do
  case "$1" in --objects|--work-dir) bench_need_value "$1" $# "${2:-}" ;; esac
  case "$1" in
    --objects) objects="$2"; shift 2 ;;
    --work-dir) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) bench_usage; exit 0 ;;
    *) echo "instruction_counts.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
bench_positive_integers --objects "$objects"
tools="$build/tools"
bench="$build/bench/moonquota-bench"
for f in "$tools/snapshot-forge" "$tools/snapshot-inspect" "$tools/quota-rebuild" "$bench"; do
  [[ -x "$f" ]] || { echo "instruction_counts.sh: $f is missing: build first (bash scripts/build.sh build)" >&2; exit 3; }
done
command -v valgrind >/dev/null || { echo "instruction_counts.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 3; }

bench_work_dir "$work" "$keep"
a="$work/store-$objects"
b="$work/store-$objects-plus1pct"
bench_forge "$tools/snapshot-forge" "$(nproc)" "$objects" "$a"
bench_forge "$tools/snapshot-forge" "$(nproc)" "$objects" "$b" "$((objects / 100))"

# count LABEL CMD...: the instructions CMD executes (every thread, the program's whole run).
count() {
  local label="$1"; shift
  local rc=0
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$work/vg.$label" "$@" \
    >"$work/out.$label" 2>"$work/err.$label" || rc=$?
  if [[ $rc -gt 1 ]]; then  # 1: verify findings, diff differences
    echo "instruction_counts.sh: $label: exit $rc: $*" >&2; tail -n 5 "$work/err.$label" "$work/vg.$label" >&2; exit 1
  fi
  local n; n="$(sed -n 's/.*Collected : \([0-9][0-9]*\).*/\1/p' "$work/vg.$label" | tail -n 1)"
  [[ -n "$n" ]] || { echo "instruction_counts.sh: $label: valgrind printed no count" >&2; exit 1; }
  echo "$n"
}

echo "## Instructions ($objects objects, 1 thread, $(date -u +%Y-%m-%d), $(valgrind --version))"
echo
echo "| command | instructions | per object | x floor | x summary |"
echo "|---|---:|---:|---:|---:|"
declare -A n
n[floor]="$(count floor "$bench" --phase floor --store "$a" --threads 1)"
n[frames]="$(count frames "$bench" --phase frames --store "$a" --threads 1)"
n[naive]="$(count naive "$bench" --phase naive --store "$a" --threads 1)"
n[naive-restore]="$(count naive-restore "$bench" --phase naive-restore --store "$a" --threads 1)"
n[ours]="$(count ours "$bench" --phase ours --store "$a" --threads 1)"
n[summary]="$(count summary "$tools/snapshot-inspect" summary --store "$a" --threads 1)"
n[rebuild]="$(count rebuild "$tools/quota-rebuild" --store "$a" --restore-time 0 --threads 1)"
n[verify]="$(count verify "$tools/snapshot-inspect" verify --store "$a" --threads 1)"
n[diff]="$(count diff "$tools/snapshot-inspect" diff --store "$a" --other-store "$b" --threads 1)"
for name in floor frames naive naive-restore ours summary rebuild verify diff; do
  label="$name"
  [[ $name == floor || $name == frames || $name == naive* || $name == ours ]] && label="$name (moonquota-bench)"
  awk -v l="$label" -v c="${n[$name]}" -v o="$objects" -v f="${n[floor]}" -v s="${n[summary]}" -v k="$name" 'BEGIN{
    x = (k == "floor" || k == "frames" || k ~ /^naive/ || k == "ours" || k == "rebuild") ? sprintf("%.2fx", c / f) : "";
    y = (k == "summary" || k == "verify" || k == "diff") ? sprintf("%.2fx", c / s) : "";
    printf "| %s | %d | %.0f | %s | %s |\n", l, c, c / o, x, y }'
done
[[ $keep -eq 1 ]] || rm -rf "$a" "$b"
