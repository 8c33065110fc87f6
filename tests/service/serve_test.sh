#!/usr/bin/env bash
# quota-reconcile serve end to end, over real HTTP (curl) against the master stand-in:
#   1. before the first audit finishes (a master that answers after 20 s): /report is 503, /metrics
#      has the run series without last_run_success; SIGTERM during that audit gives up on it after
#      the 10 s bound and still exits 0;
#   2. serve --listen 127.0.0.1:0 --every 1s --db: every endpoint answers with the right content;
#   3. the master killed: the error is a metric, the service keeps answering, the last good
#      per-tenant series stay; the master restarted on its port: success again;
#   4. a taken port is exit 4 naming the address; bad flags are exit 2;
#   5. SIGTERM: exit 0 within a bound;
#   6. with --every 1h, a new latest snapshot named by the catalog starts an audit;
#   7. with an OpLog and --standby: the failover gauges after every audit, their seconds from
#      the samples of --db, and a dead standby as a failed sampling.
# Every wait polls with a deadline. Needs curl (scripts/setup.sh): without it the test is skipped
# (77), or fails under CI=true.
# Usage: serve_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools="$1"; src="$2"
if ! command -v curl >/dev/null 2>&1; then
  echo "curl is missing (scripts/setup.sh installs it)"
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
fi
cd "$src" || exit 1
r1=snapshots/genuine-live/r1_quiescent_orphan
meta=(--store "$r1/store" --policy "$r1/policy.yaml")
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# start_master NAME ARGS...: the stand-in in the live model; sets master_pid and master_url.
start_master() {
  local name="$1"; shift
  rm -f "$work/$name.url"
  "$tools/master-stand-in" "${meta[@]}" --model live "$@" >"$work/$name.url" 2>"$work/$name.err" &
  master_pid=$!
  pids+=("$master_pid")
  for _ in $(seq 1 400); do [[ -s "$work/$name.url" ]] && break; sleep 0.05; done
  master_url="$(head -n 1 "$work/$name.url")"
  [[ "$master_url" == http://127.0.0.1:* ]] || { echo "master-stand-in did not start"; cat "$work/$name.err"; exit 1; }
}

# start_serve NAME ARGS...: quota-reconcile serve; sets serve_pid and serve_url (from the first
# stderr line, "listening on http://HOST:PORT").
start_serve() {
  local name="$1"; shift
  "$tools/quota-reconcile" serve "$@" 2>"$work/$name.err" >"$work/$name.out" &
  serve_pid=$!
  pids+=("$serve_pid")
  serve_url=""
  for _ in $(seq 1 400); do
    if [[ -s "$work/$name.err" ]]; then
      local first
      first="$(head -n 1 "$work/$name.err")"
      if [[ "$first" == "listening on http://"* && "$(wc -l <"$work/$name.err")" -ge 1 ]]; then
        serve_url="${first#listening on }"
        break
      fi
    fi
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.05
  done
  [[ -n "$serve_url" ]] || { echo "serve did not start"; cat "$work/$name.err"; exit 1; }
}

# get PATH: body into $work/body, status into $code.
get() { code="$(curl -s -m 10 -o "$work/body" -w '%{http_code}' "$serve_url$1")"; }

# poll_metrics REGEX [SECONDS]: until /metrics has a line matching REGEX.
poll_metrics() {
  local deadline=$((SECONDS + ${2:-30}))
  while ((SECONDS < deadline)); do
    get /metrics
    [[ "$code" == 200 ]] && grep -qE "$1" "$work/body" && return 0
    sleep 0.1
  done
  return 1
}

# wait_exit PID SECONDS: sets rc to the exit code, or "timeout".
wait_exit() {
  local pid="$1" deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid"
      rc=$?
      return
    fi
    sleep 0.05
  done
  rc=timeout
}

# --- 1. before the first audit; SIGTERM gives up on a hung audit after the bound -----------------
start_master slow --slow-ms 20000
start_serve slow "${meta[@]}" --master "$master_url" --timeout-ms 60000 --listen 127.0.0.1:0 --every 1s
get /report
[[ "$code" == 503 ]] || fail "/report before the first audit: HTTP $code"
grep -qx "no audit has finished yet" "$work/body" || fail "/report before the first audit: $(cat "$work/body")"
get /metrics
[[ "$code" == 200 ]] || fail "/metrics before the first audit: HTTP $code"
grep -q '^moonquota_reconcile_runs_total{result="ok",cluster="default"} 0$' "$work/body" ||
  fail "/metrics before the first audit lacks runs_total 0"
grep -q 'last_run_success' "$work/body" && fail "/metrics before the first audit has last_run_success"
grep -q '^moonquota_reconcile_running{cluster="default"} 1$' "$work/body" || fail "the first audit is not running"
get /healthz
[[ "$code" == 503 ]] || fail "/healthz before the first audit: HTTP $code"
start_term=$SECONDS
kill -TERM "$serve_pid"
wait_exit "$serve_pid" 25
[[ "$rc" == 0 ]] || fail "SIGTERM during a hung audit: exit $rc (expected 0 after the 10 s bound)"
((SECONDS - start_term >= 9)) || fail "SIGTERM did not wait for the audit in progress ($((SECONDS - start_term)) s)"
grep -q "did not finish within 10s: giving up on it" "$work/slow.err" || fail "no give-up line: $(cat "$work/slow.err")"
{ kill -9 "$master_pid"; wait "$master_pid"; } 2>/dev/null

# --- 2. every endpoint ---------------------------------------------------------------------------
start_master live --drift beta=4096
master_port="${master_url##*:}"
start_serve main "${meta[@]}" --master "$master_url" --retries 1 --listen 127.0.0.1:0 --every 1s \
  --db "$work/db" --cluster cell-t
poll_metrics '^moonquota_reconcile_runs_total\{result="drift",cluster="cell-t"\} [1-9]' ||
  fail "no drift run within 30 s: $(cat "$work/main.err")"
# Whole lines, as extended regular expressions.
for line in \
  'moonquota_build_info[{]version="[^"]+",git="[^"]+",upstream_commit="3b5a5941",cluster="cell-t"[}] 1' \
  'moonquota_reconcile_last_run_success[{]cluster="cell-t"[}] 1' \
  'moonquota_reconcile_last_run_exit_code[{]cluster="cell-t"[}] 1' \
  'moonquota_reconcile_last_run_duration_seconds[{]cluster="cell-t"[}] [0-9]+[.][0-9]{3}' \
  'moonquota_reconcile_last_success_timestamp_seconds[{]cluster="cell-t"[}] [0-9]+[.][0-9]{3}' \
  'moonquota_reconcile_snapshot_age_seconds[{]cluster="cell-t"[}] [0-9]+[.][0-9]{3}' \
  'moonquota_reconcile_delta_bytes[{]tenant_id="beta",model="live",cluster="cell-t"[}] 4096' \
  'moonquota_reconcile_verdict[{]tenant_id="beta",model="live",verdict="live_over",cluster="cell-t"[}] 1' \
  'moonquota_reconcile_unexplained_bytes[{]tenant_id="beta",model="live",cluster="cell-t"[}] 4096' \
  'moonquota_reconcile_persistent[{]tenant_id="beta",model="live",cluster="cell-t"[}] [01]'; do
  grep -qE "^$line\$" "$work/body" || fail "/metrics lacks: $line"
done
# Every sample line carries the cluster label.
grep -v '^#' "$work/body" | grep -v 'cluster="cell-t"' | head -3 | while read -r l; do fail "no cluster label: $l"; done
get /healthz
[[ "$code" == 200 && "$(cat "$work/body")" == ok ]] || fail "/healthz: HTTP $code $(cat "$work/body")"
get /report
[[ "$code" == 200 ]] && grep -q '<html' "$work/body" && grep -q 'beta' "$work/body" || fail "/report: HTTP $code"
get /report.json
[[ "$code" == 200 ]] || fail "/report.json: HTTP $code"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["schema"]=="quota-reconcile/1", j["schema"]; assert any(t["tenant_id"]=="beta" and t["delta_bytes"]==4096 for t in j["tenants"])' \
  "$work/body" || fail "/report.json content"
get "/history?tenant=beta"
[[ "$code" == 200 ]] || fail "/history?tenant=beta: HTTP $code $(cat "$work/body")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["schema"]=="quota-reconcile-history/1"; assert [t["tenant_id"] for t in j["tenants"]]==["beta"]; assert j["tenants"][0]["points"][-1]["delta_bytes"]==4096' \
  "$work/body" || fail "/history content: $(head -c 300 "$work/body")"
get "/history?tenant="
[[ "$code" == 400 ]] || fail "/history?tenant= : HTTP $code"
get "/history?tenant=nobody"
[[ "$code" == 404 ]] || fail "/history?tenant=nobody : HTTP $code"
get /nope
[[ "$code" == 404 ]] || fail "/nope: HTTP $code"

# --- 3. the master dies and comes back -------------------------------------------------------------
{ kill -9 "$master_pid"; wait "$master_pid"; } 2>/dev/null
poll_metrics '^moonquota_reconcile_last_run_success\{cluster="cell-t"\} 0$' || fail "no failed run after the master died"
# An audit in flight when the master died fails with "connection reset or closed before the answer";
# every later one is refused (one per second), so wait for that one rather than assume the first
# failure is it (CI under ASan lost this race once).
poll_metrics '^moonquota_reconcile_last_error_info\{exit_code="4",message="master GET [^"]*connection refused[^"]*",cluster="cell-t"\} 1$' ||
  fail "no last_error_info: $(grep error "$work/body")"
grep -qE '^moonquota_reconcile_runs_total\{result="error",cluster="cell-t"\} [1-9]' "$work/body" || fail "no error run counted"
grep -q '^moonquota_reconcile_delta_bytes{tenant_id="beta",model="live",cluster="cell-t"} 4096$' "$work/body" ||
  fail "the last good per-tenant series did not stay"
get /report.json
[[ "$code" == 200 ]] || fail "/report.json after a failure: HTTP $code"
grep -q "failed (exit 4)" "$work/main.err" || fail "no log line for the failed audit"
start_master back --drift beta=4096 --port "$master_port"
poll_metrics '^moonquota_reconcile_last_run_success\{cluster="cell-t"\} 1$' || fail "no success after the master came back"
grep -q 'last_error_info' "$work/body" && fail "last_error_info stays after a success"

# --- 4. a taken port, bad flags -------------------------------------------------------------------
main_pid="$serve_pid"
taken="${serve_url##*:}"
"$tools/quota-reconcile" serve "${meta[@]}" --master "$master_url" --listen "127.0.0.1:$taken" \
  >"$work/taken.out" 2>"$work/taken.err" &
taken_pid=$!
pids+=("$taken_pid")
wait_exit "$taken_pid" 15
[[ "$rc" == 4 ]] || fail "taken port: exit $rc"
grep -q "cannot listen on http://127.0.0.1:$taken" "$work/taken.err" || fail "taken port message: $(cat "$work/taken.err")"
for bad in "--every 5" "--every 0s" "--listen 9464" "--format json" "--output x.prom" "--listen"; do
  # shellcheck disable=SC2086
  timeout 15 "$tools/quota-reconcile" serve "${meta[@]}" --master "$master_url" $bad >/dev/null 2>"$work/bad.err"
  rc=$?
  [[ "$rc" == 2 ]] || fail "serve $bad: exit $rc ($(cat "$work/bad.err"))"
done

# --- 5. SIGTERM -------------------------------------------------------------------------------------
kill -TERM "$main_pid"
wait_exit "$main_pid" 15
[[ "$rc" == 0 ]] || fail "SIGTERM: exit $rc"
grep -q "stopped" "$work/main.err" || fail "no 'stopped' line"

# --- 6. a new latest snapshot starts an audit (the interval is an hour) -------------------------------
cp -r "$r1/store" "$work/store"
latest_file="$work/store/mooncake_master_snapshot/mooncake_cluster/latest.txt"
echo 20261129_124452_790 >"$latest_file"
start_serve follow --store "$work/store" --policy "$r1/policy.yaml" --master "$master_url" --listen 127.0.0.1:0 --every 1h
# snapshot_id_is ID [SECONDS]: until /report.json names ID as the metadata's snapshot.
snapshot_id_is() {
  local deadline=$((SECONDS + ${2:-30}))
  while ((SECONDS < deadline)); do
    get /report.json
    [[ "$code" == 200 ]] && python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["metadata"]["snapshot_id"] != sys.argv[2])' \
      "$work/body" "$1" && return 0
    sleep 0.2
  done
  return 1
}
snapshot_id_is 20261129_124452_790 || fail "the first audit did not read the latest snapshot 20261129_124452_790"
echo 20261129_124455_488 >"$latest_file"
# The latest pointer is read every min(interval, 10 s): well within 30 s.
snapshot_id_is 20261129_124455_488 30 || fail "a new latest snapshot did not start an audit"
grep -q "audit (new latest snapshot" "$work/follow.err" || fail "no 'new latest snapshot' audit in the log"
follow_pid="$serve_pid"
kill -TERM "$follow_pid"
wait_exit "$follow_pid" 15
[[ "$rc" == 0 ]] || fail "SIGTERM (follow): exit $rc"

# --- 7. with an OpLog and a standby: the failover gauges (moonquota_ha_*) after every audit ------------
pw=snapshots/promote-worked
pw_snapshot="$pw/store/mooncake_master_snapshot/prod-a/20261129_120000_000"
"$tools/master-stand-in" --snapshot-dir "$pw_snapshot" --restore-time 1795953600000 --ha-applied-sequence 43 \
  >"$work/ha.url" 2>"$work/ha.err" &
ha_pid=$!
pids+=("$ha_pid")
for _ in $(seq 1 400); do [[ -s "$work/ha.url" ]] && break; sleep 0.05; done
ha_url="$(head -n 1 "$work/ha.url")"
start_serve ha --store "$pw/store" --cluster-id prod-a --oplog-file "$pw/oplog.jsonl" --master "$ha_url" \
  --standby "$ha_url" --listen 127.0.0.1:0 --every 1s --db "$work/ha-db" --timeout-ms 500 --retries 1
poll_metrics '^moonquota_ha_window_entries\{window="catch_up",cluster="prod-a"\} 3$' ||
  fail "serve with an OpLog: no catch-up window of 3 entries"
for line in 'moonquota_ha_position_sequence{position="durable",cluster="prod-a"} 46' \
  'moonquota_ha_position_sequence{position="standby_applied",cluster="prod-a"} 43' \
  'moonquota_ha_position_sequence{position="snapshot",cluster="prod-a"} 41' \
  'moonquota_ha_window_entries{window="snapshot_gap",cluster="prod-a"} 5' \
  'moonquota_ha_window_tenant_charged_bytes_delta{window="catch_up",tenant_id="tenant-b",cluster="prod-a"} 65536' \
  'moonquota_ha_last_sample_success{cluster="prod-a"} 1'; do
  grep -qxF "$line" "$work/body" || fail "serve with an OpLog: /metrics lacks '$line'"
done
# The seconds come from the samples --db keeps: a second audit dates the standby's position.
poll_metrics '^moonquota_ha_window_seconds\{window="catch_up",cluster="prod-a"\} [0-9]' ||
  fail "serve with an OpLog: no catch-up seconds after two samplings"
# The standby gone: the sampling fails (the audit too: it is the same stand-in), and says why.
{ kill -9 "$ha_pid"; wait "$ha_pid"; } 2>/dev/null
poll_metrics '^moonquota_ha_last_sample_success\{cluster="prod-a"\} 0$' ||
  fail "serve with an OpLog: a dead standby does not make the sampling fail"
grep -q '^moonquota_ha_last_error_info{exit_code="4",message=' "$work/body" || fail "no ha last_error_info"
kill -TERM "$serve_pid"
wait_exit "$serve_pid" 15
[[ "$rc" == 0 ]] || fail "SIGTERM (ha): exit $rc"
timeout 15 "$tools/quota-reconcile" serve "${meta[@]}" --master "$master_url" --standby http://127.0.0.1:1 \
  >/dev/null 2>"$work/bad.err"
rc=$?
[[ "$rc" == 2 ]] && grep -q -- "--standby samples OpLog positions" "$work/bad.err" ||
  fail "serve --standby without an OpLog: exit $rc ($(cat "$work/bad.err"))"

if ((failures > 0)); then
  echo "--- serve stderr (tail)"; tail -n 20 "$work/main.err"
  echo "$failures failure(s)"; exit 1
fi
echo "serve: all checks passed"
