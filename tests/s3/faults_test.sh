#!/usr/bin/env bash
# CTest s3.faults (issue 12): quota-rebuild and snapshot-inspect read a store from the real S3
# server through tests/support/s3_fault_proxy.py, which injects the faults S3 clients meet (503
# SlowDown, 500, 502, resets before and in the middle of a body, short bodies, stalls, a listing
# that is not XML, 403). Each run either prints exactly the table the local copy gives (after
# retries, which the proxy's log and -v show) or fails with exit 4 naming the request, the
# endpoint and the last error, and prints no table: never a wrong one. Secrets never appear.
# The store is forged with 200000 objects, so its metadata takes many ranged GETs in a 1 MiB
# download window. Without s3rver it is skipped (77), under CI=true it fails.
#   bash tests/s3/faults_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
source "$(dirname "$0")/common.sh"
s3_require_server
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-faults.XXXXXX")"
trap 'stop_proxy; rm -rf "$work"' EXIT

secret="sEcReT-never-printed-$$"
s3_use_test_server
export MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret"  # s3rver does not check it; it must never be printed
bucket="faults-$$-$RANDOM"
"$tools_dir/snapshot-forge" --large 200000 --out "$work/store" -q || { echo "forge failed"; exit 1; }
bash "$source_dir/tests/s3/upload_store.sh" "$work/store" "s3://$bucket" >/dev/null || { echo "upload failed"; exit 1; }
restore_time=1787375520123
"$tools_dir/quota-rebuild" --store "$work/store" --restore-time $restore_time | sed 1d > "$work/local.txt"
[[ -s "$work/local.txt" ]] || { echo "no local table"; exit 1; }

# run NAME EXPECTED_RC [--rule R]... -- [extra tool flags]: rebuild through a fresh proxy.
run() {
  local name="$1" want="$2"; shift 2
  local rules=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do rules+=("$1"); shift; done
  [[ "${1:-}" == "--" ]] && shift
  start_proxy "$work" "${rules[@]}"
  local endpoint="$proxy_endpoint"
  timeout 120 "$tools_dir/quota-rebuild" --store "s3://$bucket" --restore-time $restore_time -v \
    --s3-endpoint "$endpoint" --s3-window-mib 1 --s3-request-timeout-ms 1000 "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  stop_proxy
  if [[ "$rc" != "$want" ]]; then fail "$name: exit $rc, expected $want"; tail -5 "$work/err"; return; fi
  if grep -qF -- "$secret" "$work/err" "$work/out"; then fail "$name: the secret was printed"; fi
  if [[ "$want" == 0 ]]; then
    if ! sed 1d "$work/out" | diff -q - "$work/local.txt" >/dev/null; then fail "$name: the table differs from the local one"; return; fi
    grep -q "^source:    s3://$bucket " "$work/out" || fail "$name: the source line does not name s3://$bucket"
  elif [[ -s "$work/out" ]]; then
    fail "$name: printed a report although it failed"
  fi
  echo "ok   $name"
}
# expect NAME PATTERN FILE: FILE (err or proxy.log) of the last run matches PATTERN.
expect() { grep -qE -- "$2" "$work/$3" || { fail "$1: $3 lacks /$2/"; sed 's/^/    /' "$work/$3" | tail -8; }; }

run "no fault" 0
expect "no fault" "GET /$bucket/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123/metadata pass 206" proxy.log
[[ $(grep -c "/metadata pass 206" "$work/proxy.log") -ge 8 ]] || fail "metadata was not read in ranges of the 1 MiB window"

run "503 SlowDown on metadata ranges" 0 --rule 'GET:/metadata:503:3'
expect "503" "/metadata 503 503" proxy.log
expect "503" "attempt 1 of 6 failed: HTTP 503 SlowDown: Please reduce your request rate.*retrying in [0-9]+ ms" err

run "500 on the listing, 502 on latest.txt" 0 --rule 'GET:list-type=2:500:1' --rule 'GET:latest.txt:502:2'
expect "500/502" "HTTP 500 InternalError" err
expect "500/502" "latest.txt: attempt 2 of 6 failed: HTTP 502" err

run "reset mid-body" 0 --rule 'GET:/metadata:reset-mid-body:2'
expect "reset mid-body" "/metadata reset-mid-body 206" proxy.log
expect "reset mid-body" "body truncated at byte [0-9]+ of [0-9]+|connection reset or closed" err

run "reset before the answer" 0 --rule 'GET:/segments:reset-before:2'
expect "reset before" "connection reset or closed before the answer" err

run "short bodies" 0 --rule 'GET:/metadata:short-body:3' --rule 'GET:/segments:short-body:1'
expect "short bodies" "body truncated at byte [0-9]+ of [0-9]+" err

run "a listing that is not XML" 0 --rule 'GET:list-type=2:garbage-xml:1'
expect "garbage listing" "not a ListObjectsV2 result" err

# A listed size that is not a plain decimal (strtoull would read "-1" as 2^64-1): never a size.
for bad in -1 +5 18446744073709551616; do
  run "a listing with size '$bad'" 4 --rule "GET:list-type=2:listing-size-$bad:all" -- --s3-max-attempts 2
  grep -qF "listed size '$bad'" "$work/err" || fail "listing size $bad: the error does not name it"
done

run "a stall longer than the request timeout" 0 --rule 'GET:/metadata:delay-2500:1'
expect "stall" "timed out after 1000 ms waiting for the answer" err

run "short bodies past the retry bound" 4 --rule 'GET:/metadata:short-body:all' -- --s3-max-attempts 3
expect "bound" "GET s3://$bucket/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123/metadata bytes [0-9]+-[0-9]+: body truncated at byte [0-9]+ of [0-9]+ at http://127.0.0.1:[0-9]+ \(after 3 attempts in [0-9]+ ms\)" err

run "503 past the time budget" 4 --rule 'GET:/metadata:503:all' -- --s3-retry-budget-ms 300
expect "budget" "HTTP 503 SlowDown.*\(after [0-9] attempts? in [0-9]+ ms\)" err

run "403 AccessDenied" 4 --rule '*::403:all'
expect "403" "HTTP 403 AccessDenied: Access Denied .*check the credentials: MOONCAKE_AWS_ACCESS_KEY_ID and MOONCAKE_AWS_SECRET_ACCESS_KEY" err
[[ $(wc -l < "$work/proxy.log") -eq 1 ]] || fail "403 was retried"

# A dead endpoint: connection refused, bounded.
dead_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
timeout 60 "$tools_dir/quota-rebuild" --store "s3://$bucket" --s3-endpoint "http://127.0.0.1:$dead_port" \
  --s3-max-attempts 2 >"$work/out" 2>"$work/err"
rc=$?
[[ $rc == 4 ]] || fail "dead endpoint: exit $rc"
grep -q "connection refused at http://127.0.0.1:$dead_port (after 2 attempts" "$work/err" || { fail "dead endpoint wording"; cat "$work/err"; }

# snapshot-inspect verify through faults: the same report as from the local copy.
"$tools_dir/snapshot-inspect" verify --store "$work/store" --restore-time $restore_time > "$work/verify-local.txt"
start_proxy "$work" --rule 'GET:/metadata:reset-mid-body:1' --rule 'GET:/task_manager:503:1'
"$tools_dir/snapshot-inspect" verify --store "s3://$bucket" --restore-time $restore_time \
  --s3-endpoint "$proxy_endpoint" --s3-window-mib 1 > "$work/verify-s3.txt" 2>"$work/err"
rc=$?
stop_proxy
[[ $rc == 0 ]] || fail "verify through faults: exit $rc"
# (the checksums line is what only an object store adds: docs/cli/snapshot-inspect.md)
sed -e "s#s3://$bucket#$work/store#g" -e '/^checksums:   /d' "$work/verify-s3.txt" | diff "$work/verify-local.txt" - ||
  fail "verify through faults: the report differs from the local one"

echo "$failures failures"
[[ $failures -eq 0 ]]
