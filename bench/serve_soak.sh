#!/usr/bin/env bash
# Soak (issue 14): quota-reconcile serve runs RUNS audits back to back (--every EVERY) against
# master-stand-in serving the sample store (snapshots/sample, live model, one tenant drifted),
# with a history store (--db) and a scraper fetching /metrics, /report and /report.json between
# samples. Every SAMPLE_EVERY audits it prints the service's RSS and its peak (VmRSS, VmHWM of
# /proc/PID/status), the history store's size and the wall time. Not a test: numbers for the notes.
#   bash bench/serve_soak.sh [RUNS (1000)] [EVERY (20ms)] [SAMPLE_EVERY (100)]
# Tools from build/tools (override with TOOLS=DIR). NO_DB=1 runs without --db.
set -euo pipefail
runs="${1:-1000}"; every="${2:-20ms}"; sample_every="${3:-100}"
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$here/bench/bench_lib.sh"
bench_positive_integers "RUNS SAMPLE_EVERY" "$runs" "$sample_every"
tools="${TOOLS:-$here/build/tools}"
work="$(mktemp -d "${TMPDIR:-/tmp}/serve-soak.XXXXXX")"
master_pid=""; serve_pid=""
cleanup() {
  [[ -n "$serve_pid" ]] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  [[ -n "$master_pid" ]] && kill "$master_pid" 2>/dev/null && wait "$master_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$here"
meta=(--store snapshots/sample/store --policy snapshots/sample/policy.yaml)
"$tools/master-stand-in" "${meta[@]}" --model live --drift acme-llm=4096 >"$work/master.url" 2>"$work/master.err" &
master_pid=$!
for _ in $(seq 1 200); do [[ -s "$work/master.url" ]] && break; sleep 0.05; done
master="$(head -n 1 "$work/master.url")"
db=(--db "$work/db")
[[ "${NO_DB:-0}" == 1 ]] && db=()
"$tools/quota-reconcile" serve "${meta[@]}" --master "$master" "${db[@]}" --listen 127.0.0.1:0 --every "$every" -q \
  2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 200); do [[ -s "$work/serve.err" ]] && break; sleep 0.05; done
url="$(head -n 1 "$work/serve.err")"; url="${url#listening on }"
runs_done() {
  curl -s "$url/metrics" | awk '/^moonquota_reconcile_runs_total/ {n += $2} END {print n + 0}'
}
rss() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$serve_pid/status"; }
echo "| audits | RSS (KiB) | peak RSS (KiB) | history (KiB) | wall (s) |"
echo "|---|---|---|---|---|"
start=$SECONDS
next="$sample_every"
while :; do
  n="$(runs_done)"
  curl -s -o /dev/null "$url/report"; curl -s -o /dev/null "$url/report.json"
  if ((n >= next)); then
    hist=0
    # RocksDB replaces files while du walks the directory: a vanished file is not an error.
    [[ -d "$work/db" ]] && hist="$( (du -sk --apparent-size "$work/db" 2>/dev/null || true) | cut -f1)"
    echo "| $n | $(rss VmRSS) | $(rss VmHWM) | $hist | $((SECONDS - start)) |"
    next=$((next + sample_every))
  fi
  ((n >= runs)) && break
  kill -0 "$serve_pid" || { echo "serve died"; cat "$work/serve.err"; exit 1; }
  sleep 0.2
done
curl -s "$url/metrics" | grep -E '^moonquota_reconcile_runs_total' | sed 's/^/# /'
kill -TERM "$serve_pid"; wait "$serve_pid"; echo "# serve exit code: $?"; serve_pid=""
