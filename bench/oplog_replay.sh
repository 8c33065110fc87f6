#!/usr/bin/env bash
# Benchmark (issue 15): OpLog replay (the promote path) of ours against a baseline build, same
# input, same run. For each size it forges a synthetic log (snapshot-forge --oplog-large N), then
# runs, best of RUNS, with GNU time (wall, user CPU, peak RSS):
#   quota-rebuild --store EMPTY --oplog-file FILE --cluster-id C   (no snapshot: replay from 1)
#   oplog-inspect summary --oplog-file FILE --cluster-id C
# and checks that ours and the baseline print the same report. entries/s = N / wall; the
# speed-ups are of wall time and of user CPU (the steadier one on a shared machine).
#   bash bench/oplog_replay.sh [SIZES ("100000 1000000")] [RUNS (3)]
# Tools: ours from build/tools (override with TOOLS=DIR); the baseline from BASE_TOOLS=DIR
# (default /tmp/base-5a2a67d/build/tools: `git worktree add /tmp/base-5a2a67d 5a2a67d`, then
# configure it RelWithDebInfo with -DMOONQUOTA_BUILD_TESTS=OFF and build the targets quota-rebuild
# and oplog-inspect). Without a baseline only ours is measured. Prints a Markdown table. A run that
# fails ends the script (exit 1, its stderr shown); SIZES and RUNS must be positive integers (exit 2).
set -euo pipefail
sizes="${1:-100000 1000000}"; runs="${2:-3}"
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$here/bench/bench_lib.sh"
# shellcheck disable=SC2086  # SIZES is a list
bench_positive_integers SIZES $sizes
bench_positive_integers RUNS "$runs"
tools="${TOOLS:-$here/build/tools}"
base_tools="${BASE_TOOLS:-/tmp/base-5a2a67d/build/tools}"
work="$(mktemp -d "${TMPDIR:-/tmp}/oplog-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty/mooncake_master_snapshot/C"

builds=(ours)
[[ -x "$base_tools/quota-rebuild" && -x "$base_tools/oplog-inspect" ]] && builds=(base ours)
echo "| entries | command | build | wall s | user s | peak RSS MiB | entries/s | speed-up (wall) | speed-up (user) |"
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  "$tools/snapshot-forge" --oplog-large "$n" --oplog-cluster-id C --out "$work/log-$n" -q
  file="$work/log-$n/oplog.jsonl"
  for cmd in rebuild summary; do
    base_rate=""
    base_user=""
    for b in "${builds[@]}"; do
      dir="$tools"; [[ "$b" == base ]] && dir="$base_tools"
      if [[ "$cmd" == rebuild ]]; then
        args=("$dir/quota-rebuild" --store "$work/empty" --oplog-file "$file" --cluster-id C --restore-time 1787375520123)
      else
        args=("$dir/oplog-inspect" summary --oplog-file "$file" --cluster-id C)
      fi
      read -r wall user _ kb < <(bench_best "$runs" 0 "$b-$cmd" "${args[@]}")
      rate="$(awk -v n="$n" -v s="$wall" 'BEGIN{printf "%d", (s > 0 ? n / s : 0)}')"
      ratio="—"
      user_ratio="—"
      if [[ "$b" == base ]]; then
        base_rate="$rate"
        base_user="$user"
      elif [[ -n "$base_rate" ]]; then
        ratio="$(awk -v a="$rate" -v b="$base_rate" 'BEGIN{printf "%.2fx", a / b}')"
        user_ratio="$(awk -v a="$user" -v b="$base_user" 'BEGIN{printf "%.2fx", (a > 0 ? b / a : 0)}')"
      fi
      echo "| $n | $cmd | $b | $wall | $user | $((kb / 1024)) | $rate | $ratio | $user_ratio |"
    done
    # The same replay: summary prints the same report; rebuild the same OpLog, validation and
    # tenant lines (the baseline predates other report lines, e.g. "leases:").
    same() { if [[ "$cmd" == rebuild ]]; then grep -E '^(oplog|validate|tenant-)' "$1"; else cat "$1"; fi; }
    if [[ ${#builds[@]} -eq 2 ]] && ! diff -q <(same "$work/out.base-$cmd") <(same "$work/out.ours-$cmd") >/dev/null; then
      echo "oplog_replay.sh: $cmd: ours and the baseline print different reports for $n entries" >&2
      diff <(same "$work/out.base-$cmd") <(same "$work/out.ours-$cmd") | head -n 20 >&2
      exit 1
    fi
  done
done
