#!/usr/bin/env bash
# The performance table of docs/PERFORMANCE.md (issue 15), in one run anyone can repeat.
#
#   bash scripts/bench.sh [--objects "1000000 5000000 18000000"] [--oplog-entries "100000 1000000"]
#                         [--promote-tail 1000000] [--threads 2] [--runs 1] [--work-dir DIR] [--keep]
#                         [--no-baseline]
#
# For each object count N it forges two stores (snapshot-forge --large N --oplog-tail M, and its 1% twin
# --large N --added-objects N/100: the same N objects, byte for byte, and segments plus 1% new
# objects, for diff), then measures with GNU time (wall,
# user + system CPU, peak RSS; the best wall time of --runs runs), all with --threads T:
#   floor       moonquota-bench's zstd-only floor: every shard decompressed, nothing decoded
#   frames      moonquota-bench's floor plus the segments payload and its allocator frames (node
#               tables, free-node lists) decompressed: every zstd frame a restore decompresses
#   naive       moonquota-bench's msgpack::unpack object-tree walk summing the charge
#   naive-restore  naive plus the segments payload as frames has it (what a restore must also
#               decode: the naive walk doing a restore's work, compared with ours)
#   ours        moonquota-bench's run of the quota-rebuild library path (in process, like the two above)
#   rebuild     quota-rebuild --store A --restore-time 0 (no lease filter: every object tallied)
#   promote     quota-rebuild --store A --oplog-file A/oplog.jsonl --restore-time 0: the promotion
#               path (a standby bootstraps from A and replays the M-entry tail that continues it)
#   reconcile   quota-reconcile --store A --live-json L (the live model; L is the rebuilt table)
#   summary     snapshot-inspect summary --store A
#   verify      snapshot-inspect verify --store A
#   survival    snapshot-inspect survival --store A (the nine default delays)
#   promote-survival  snapshot-inspect survival --store A --path promote --oplog-file A/oplog.jsonl
#               (the nine default delays on the promotion path: one streaming pass for all)
#   diff        snapshot-inspect diff --store A --other-store B
# floor, frames, naive, naive-restore and ours are measured inside moonquota-bench (its own process per phase, best of --runs
# runs); both stores are read once before (every measurement reads from the page cache); the ratio
# columns are our wall time over the floor's and our CPU over summary's. Then the OpLog replay
# (bench/oplog_replay.sh: 1M-entry forged logs, quota-rebuild --oplog-file and oplog-inspect
# summary) beside the baseline commit 5a2a67d, which this script builds under the work directory
# unless --no-baseline (a git worktree of this repository, tests off).
#
# Output: Markdown tables on stdout, progress on stderr. Needs a RelWithDebInfo build in build/
# (scripts/build.sh build) with the tools and bench/moonquota-bench. Disk: about 65 bytes per
# object per store (18M objects: 1.2 GB each) under the work directory (default a temporary
# directory, removed at the end unless --keep). Each size's two stores are removed once measured;
# --keep keeps them (and the temporary directory), and a later run with the same --work-dir
# reuses them.
# Exit 2: a usage error (a flag without its value too); 3, before anything is measured: no build, a
# --work-dir that is not a writable directory, or (without --no-baseline) no commit 5a2a67d in the
# checkout; 3 also for a store-N in --work-dir that no bench script forged (it is never replaced);
# 1: a measured command failed (its stderr is shown).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
objects="1000000 5000000 18000000"
oplog_entries="100000 1000000"
promote_tail=1000000
threads=2
runs=1
work=""
keep=0
baseline=1
build="${BUILD_DIR:-$here/build}"

# shellcheck source=bench/bench_lib.sh
source "$here/bench/bench_lib.sh"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --objects|--oplog-entries|--promote-tail|--threads|--runs|--work-dir) bench_need_value "$1" $# "${2:-}" ;;
  esac
  case "$1" in
    --objects) objects="$2"; shift 2 ;;
    --oplog-entries) oplog_entries="$2"; shift 2 ;;
    --promote-tail) promote_tail="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --work-dir) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --no-baseline) baseline=0; shift ;;
    -h|--help) bench_usage; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
bench_positive_integers --threads "$threads"
bench_positive_integers --runs "$runs"
bench_positive_integers --promote-tail "$promote_tail"
# shellcheck disable=SC2086  # the two are lists
bench_positive_integers --objects $objects
# shellcheck disable=SC2086
bench_positive_integers --oplog-entries $oplog_entries
tools="$build/tools"
bench="$build/bench/moonquota-bench"
for t in quota-rebuild quota-reconcile snapshot-inspect snapshot-forge oplog-inspect; do
  [[ -x "$tools/$t" ]] || { echo "bench.sh: $tools/$t is missing: build first (bash scripts/build.sh build)" >&2; exit 3; }
done
[[ -x "$bench" ]] || { echo "bench.sh: $bench is missing: build first" >&2; exit 3; }
command -v /usr/bin/time >/dev/null || { echo "bench.sh: GNU time (/usr/bin/time, package time) is missing" >&2; exit 3; }
if [[ $baseline -eq 1 ]] && ! git -C "$here" cat-file -e '5a2a67d^{commit}' 2>/dev/null; then
  echo "bench.sh: the baseline 5a2a67d is not in $here (a git clone with its history is needed): use --no-baseline" >&2
  exit 3
fi

bench_work_dir "$work" "$keep"
log() { echo "bench.sh: $*" >&2; }

forge() { bench_forge "$tools/snapshot-forge" "$threads" "$@"; }  # N DIR [ADDED]

mib() { awk -v k="$1" 'BEGIN{printf "%.0f", k / 1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2fx", a / b; else printf "—" }'; }

echo "## Snapshot commands ($threads threads, best wall of $runs run(s), $(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| objects | command | wall s | CPU s | peak RSS MiB | x floor wall | x summary CPU |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for n in $objects; do
  a="$work/store-$n"; b="$work/store-$n-plus1pct"
  forge "$n" "$a" 0 "$promote_tail"
  forge "$n" "$b" "$((n / 100))"

  # Every run reads the stores from the page cache: the first phase measured must not pay for the disk.
  find "$a" "$b" -type f -exec cat {} + >/dev/null
  log "$n objects: floor, frames, naive, naive-restore and ours (moonquota-bench, $runs run(s))"
  for i in $(seq 1 "$runs"); do
    rc=0; "$bench" --store "$a" --threads "$threads" --json >"$work/phases-$i.json" 2>"$work/err.bench" || rc=$?
    if [[ $rc -ne 0 ]]; then
      log "moonquota-bench --store $a: exit $rc"
      { tail -n 5 "$work/err.bench"; grep -o '"error": "[^"]*"' "$work/phases-$i.json" | sort -u; } >&2
      exit 1
    fi
  done
  floor_wall=""; summary_cpu=""
  for phase in floor frames naive naive-restore ours; do
    read -r wall cpu kib < <(python3 - "$phase" "$threads" "$work"/phases-*.json <<'EOF'
import json, sys
best = None
for path in sys.argv[3:]:
    for p in json.load(open(path))["phases"]:
        if p["phase"] == sys.argv[1] and p["threads"] == int(sys.argv[2]):
            if p.get("error"):
                sys.exit("moonquota-bench " + sys.argv[1] + ": " + p["error"])
            if best is None or p["seconds"] < best["seconds"]:
                best = p
print("%.3f %.2f %d" % (best["seconds"], best["cpu_seconds"], round(best["peak_rss_mib"] * 1024)))
EOF
    )
    [[ "$phase" == floor ]] && floor_wall="$wall"
    echo "| $n | $phase (moonquota-bench) | $wall | $cpu | $(mib "$kib") | $(ratio "$wall" "$floor_wall") | |"
  done

  # The live list body the reconcile run compares with: the rebuilt table itself (every tenant
  # matches), the way a healthy master answers.
  "$tools/quota-rebuild" --store "$a" --restore-time 0 --threads "$threads" --format json |
    python3 -c 'import json, sys
t = json.load(sys.stdin)["tenants"]
rows = [{"tenant_id": x["tenant_id"], "requested_quota_bytes": x["requested_quota_bytes"],
         "effective_quota_bytes": x["effective_quota_bytes"], "charged_bytes": x["charged_bytes"],
         "admission_closed": x["admission_closed"], "over_quota": x["over_quota"],
         "has_explicit_policy": x["has_explicit_policy"]} for x in t]
json.dump({"success": True, "data": rows}, sys.stdout)' >"$work/live-$n.json"

  declare -A cmds=(
    [rebuild]="$tools/quota-rebuild --store $a --restore-time 0"
    [promote]="$tools/quota-rebuild --store $a --oplog-file $a/oplog.jsonl --restore-time 0"
    [reconcile]="$tools/quota-reconcile --store $a --live-json $work/live-$n.json"
    [summary]="$tools/snapshot-inspect summary --store $a"
    [verify]="$tools/snapshot-inspect verify --store $a"
    [survival]="$tools/snapshot-inspect survival --store $a"
    [promote-survival]="$tools/snapshot-inspect survival --store $a --path promote --oplog-file $a/oplog.jsonl"
    [diff]="$tools/snapshot-inspect diff --store $a --other-store $b"
  )
  for name in summary rebuild promote reconcile verify survival promote-survival diff; do
    log "$n objects: $name"
    # shellcheck disable=SC2086  # the command strings hold no spaces but between arguments
    # exit 1 is a result here (verify's findings, diff's differences); 2 or more ends the run
    read -r wall user sys kib < <(bench_best "$runs" 1 "$name" ${cmds[$name]} --threads "$threads")
    cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u + s}')"
    [[ "$name" == summary ]] && summary_cpu="$cpu"
    echo "| $n | $name | $wall | $cpu | $(mib "$kib") | $(ratio "$wall" "$floor_wall") | $(ratio "$cpu" "$summary_cpu") |"
  done
  unset cmds
  rm -f "$work"/phases-*.json
  [[ $keep -eq 1 ]] || rm -rf "$a" "$b"
done

echo
echo "## OpLog replay (bench/oplog_replay.sh)"
echo
base_dir="$work/base-5a2a67d"
if [[ $baseline -eq 1 ]]; then
  if [[ ! -x "$base_dir/build/tools/quota-rebuild" || ! -x "$base_dir/build/tools/oplog-inspect" ]]; then
    log "building the baseline 5a2a67d in $base_dir"
    git -C "$here" worktree prune  # registrations of worktrees an interrupted run left behind
    git -C "$here" worktree add -f --detach "$base_dir" 5a2a67d >/dev/null 2>&1 || [[ -d "$base_dir/lib" ]]
    cmake -S "$base_dir" -B "$base_dir/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMOONQUOTA_BUILD_TESTS=OFF >/dev/null
    cmake --build "$base_dir/build" --target quota-rebuild oplog-inspect >/dev/null
  fi
  BASE_TOOLS="$base_dir/build/tools" TOOLS="$tools" bash "$here/bench/oplog_replay.sh" "$oplog_entries" "$runs"
  [[ $keep -eq 1 ]] || git -C "$here" worktree remove --force "$base_dir" >/dev/null 2>&1 || true
else
  BASE_TOOLS=/nonexistent TOOLS="$tools" bash "$here/bench/oplog_replay.sh" "$oplog_entries" "$runs"
fi
