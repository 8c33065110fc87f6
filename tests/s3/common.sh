# Sourced by the S3 test scripts (tests/s3/*.sh): the one definition of how they find the server
# of scripts/with-services.sh, the credentials they use, their failure counter and the fault
# proxy they start.

# Exits 77 (CTest: skipped) when there is no S3 server, or 1 under CI=true, where it must exist.
s3_require_server() {
  if [[ -z "${MOONQUOTA_S3_ENDPOINT:-}" ]]; then
    echo "no S3 server (MOONQUOTA_S3_ENDPOINT unset: run under scripts/with-services.sh after scripts/setup.sh)"
    [[ "${CI:-}" == "true" ]] && exit 1
    exit 77
  fi
}

# The tools' settings for the test server: path-style, its credentials.
s3_use_test_server() {
  export MOONCAKE_AWS_S3_ENDPOINT="$MOONQUOTA_S3_ENDPOINT" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false
  export MOONCAKE_AWS_ACCESS_KEY_ID="${MOONQUOTA_S3_ACCESS_KEY_ID:-S3RVER}"
  export MOONCAKE_AWS_SECRET_ACCESS_KEY="${MOONQUOTA_S3_SECRET_ACCESS_KEY:-S3RVER}"
}

failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# start_proxy WORK_DIR [--rule R]...: tests/support/s3_fault_proxy.py in front of the server,
# logging to WORK_DIR/proxy.log; sets proxy_pid and proxy_endpoint.
proxy_pid=""
proxy_endpoint=""
start_proxy() {
  local dir="$1"; shift
  rm -f "$dir/port" "$dir/proxy.log"
  python3 "$(dirname "${BASH_SOURCE[0]}")/../support/s3_fault_proxy.py" --upstream "$MOONQUOTA_S3_ENDPOINT" \
    --port-file "$dir/port" --log "$dir/proxy.log" "$@" 2>"$dir/proxy.err" &
  proxy_pid=$!
  for _ in $(seq 1 100); do [[ -s "$dir/port" ]] && break; sleep 0.05; done
  proxy_endpoint="http://127.0.0.1:$(cat "$dir/port")"
}
stop_proxy() {
  if [[ -n "$proxy_pid" ]]; then kill "$proxy_pid" 2>/dev/null; wait "$proxy_pid" 2>/dev/null; fi
  proxy_pid=""
}
