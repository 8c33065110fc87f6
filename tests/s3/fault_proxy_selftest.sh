#!/usr/bin/env bash
# CTest s3.fault_proxy_selftest: tests/support/s3_fault_proxy.py in front of the real s3rver of
# scripts/with-services.sh. Objects are PUT through the proxy with curl --aws-sigv4, then each
# fault is observed with curl: the status and S3 error code, a reset (curl exit 56), a short body
# (curl exit 18), a delay, a non-XML listing, COUNT and method matching, and the --log lines.
# Without s3rver (S3_PORT unset) it is skipped (exit 77), or fails under CI=true.
#   bash tests/s3/fault_proxy_selftest.sh SOURCE_DIR
set -uo pipefail
source_dir="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
proxy_py="$source_dir/tests/support/s3_fault_proxy.py"

source "$source_dir/tests/s3/common.sh"
s3_require_server

work="$(mktemp -d "${TMPDIR:-/tmp}/fault-proxy-selftest.XXXXXX")"
proxy_pid=""
cleanup() {
  if [[ -n "$proxy_pid" ]]; then kill "$proxy_pid" 2>/dev/null; wait "$proxy_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
check() {  # check DESCRIPTION ACTUAL EXPECTED
  if [[ "$2" == "$3" ]]; then
    echo "ok   $1"
  else
    echo "FAIL $1: got '$2', expected '$3'"
    failures=$((failures + 1))
  fi
}

s3=(curl -sS --max-time 30 --aws-sigv4 "aws:amz:us-east-1:s3"
  --user "${MOONQUOTA_S3_ACCESS_KEY_ID:-S3RVER}:${MOONQUOTA_S3_SECRET_ACCESS_KEY:-S3RVER}"
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
bucket="fault-proxy-selftest-$$-$RANDOM"
check "create bucket $bucket upstream" \
  "$("${s3[@]}" -X PUT -o /dev/null -w '%{http_code}' "$MOONQUOTA_S3_ENDPOINT/$bucket")" 200

python3 "$proxy_py" --upstream "$MOONQUOTA_S3_ENDPOINT" --port-file "$work/port" --log "$work/log" \
  --rule 'GET:/dir.a/obj-503.bin:503:2' \
  --rule 'GET:/dir.a/obj-500.bin:500:1' \
  --rule 'GET:/dir.a/obj-502.bin:502:1' \
  --rule 'GET:/dir.a/obj-403.bin:403:1' \
  --rule 'GET:/dir.a/obj-reset-before.bin:reset-before:1' \
  --rule 'GET:/dir.a/obj-reset-mid.bin:reset-mid-body:1' \
  --rule 'GET:/dir.a/obj-short.bin:short-body:1' \
  --rule 'GET:/dir.a/obj-delay.bin:delay-700:1' \
  --rule 'HEAD:/dir.a/obj-always.bin:503:all' \
  --rule '*:/dir.a/obj-any.bin:500:2' \
  --rule 'GET:list-type=2:garbage-xml:1' \
  2>"$work/proxy.stderr" &
proxy_pid=$!
for _ in $(seq 1 100); do [[ -s "$work/port" ]] && break; sleep 0.05; done
if [[ ! -s "$work/port" ]]; then
  echo "FAIL: the proxy did not write its port file" >&2
  cat "$work/proxy.stderr" >&2
  exit 1
fi
proxy="http://127.0.0.1:$(cat "$work/port")/$bucket"

head -c 65537 /dev/urandom >"$work/object"
objects=(503 500 502 403 reset-before reset-mid short delay always ok)
for name in "${objects[@]}"; do
  check "PUT obj-$name.bin through the proxy" \
    "$("${s3[@]}" -X PUT --data-binary @"$work/object" -o /dev/null -w '%{http_code}' \
      "$proxy/dir.a/obj-$name.bin")" 200
done
# obj-any is PUT upstream: the '*' rule would take a PUT through the proxy.
"${s3[@]}" -X PUT --data-binary @"$work/object" -o /dev/null "$MOONQUOTA_S3_ENDPOINT/$bucket/dir.a/obj-any.bin"

get() {  # get KEY-or-URL: sets code, rc, size, body (file $work/body)
  local url="$proxy/$1"
  [[ "$1" == http://* ]] && url="$1"
  code="$("${s3[@]}" -o "$work/body" -w '%{http_code}' "$url" 2>"$work/curl.stderr")"
  rc=$?
  size=$(stat -c %s "$work/body" 2>/dev/null || echo 0)
}
same_body() { cmp -s "$work/object" "$work/body" && echo same || echo different; }

# pass: an unmatched object, whole and ranged; a wrong key id is answered by s3rver itself,
# so the Authorization header reached it.
get dir.a/obj-ok.bin
check "pass: GET status" "$code" 200
check "pass: GET body" "$(same_body)" same
check "pass: ranged GET" "$("${s3[@]}" -H 'Range: bytes=10-19' -o /dev/null \
  -w '%{http_code} %{size_download}' "$proxy/dir.a/obj-ok.bin")" "206 10"
check "pass: Content-Range" "$("${s3[@]}" -H 'Range: bytes=10-19' -D - -o /dev/null \
  "$proxy/dir.a/obj-ok.bin" | tr -d '\r' | sed -n 's/^Content-Range: //Ip')" "bytes 10-19/65537"
check "pass: HEAD Content-Length" "$("${s3[@]}" -I "$proxy/dir.a/obj-ok.bin" | tr -d '\r' |
  sed -n 's/^Content-Length: //Ip')" 65537
check "pass: wrong key id reaches s3rver" "$(curl -sS --aws-sigv4 "aws:amz:us-east-1:s3" \
  --user WRONGKEY:x -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$proxy/dir.a/obj-ok.bin" |
  grep -o '<Code>[^<]*</Code>')" "<Code>InvalidAccessKeyId</Code>"

# Virtual-hosted style through the proxy: the Host header reaches s3rver unchanged.
get "http://$bucket.s3.localhost:$(cat "$work/port")/dir.a/obj-ok.bin"
check "pass: virtual-hosted GET (Host $bucket.s3.localhost)" "$code $(same_body)" "200 same"

# 503 SlowDown twice (COUNT 2), then the object.
get dir.a/obj-503.bin
check "503: first status" "$code" 503
check "503: S3 error code" "$(grep -o '<Code>[^<]*</Code>' "$work/body")" "<Code>SlowDown</Code>"
get dir.a/obj-503.bin
check "503: second status" "$code" 503
get dir.a/obj-503.bin
check "503: third GET passes" "$code $(same_body)" "200 same"

get dir.a/obj-500.bin
check "500: status and code" "$code $(grep -o '<Code>[^<]*</Code>' "$work/body")" \
  "500 <Code>InternalError</Code>"
get dir.a/obj-500.bin
check "500: then passes" "$code" 200

get dir.a/obj-502.bin
check "502: status" "$code" 502
check "502: plain text body" "$(grep -c '<?xml' "$work/body")" 0

get dir.a/obj-403.bin
check "403: status and code" "$code $(grep -o '<Code>[^<]*</Code>' "$work/body")" \
  "403 <Code>AccessDenied</Code>"

get dir.a/obj-reset-before.bin
check "reset-before: curl exit 56 (connection reset), no status" "$rc $code" "56 000"
get dir.a/obj-reset-before.bin
check "reset-before: then passes" "$code $(same_body)" "200 same"

get dir.a/obj-reset-mid.bin
check "reset-mid-body: curl exit 56 after the status line" "$rc $code" "56 200"
check "reset-mid-body: fewer bytes than Content-Length" "$((size < 65537))" 1

get dir.a/obj-short.bin
check "short-body: curl exit 18 (partial file)" "$rc $code" "18 200"
check "short-body: half the body" "$size" 32768
check "short-body: curl names the missing bytes" \
  "$(grep -c 'transfer closed with 32769 bytes remaining' "$work/curl.stderr")" 1
get dir.a/obj-short.bin
check "short-body: then passes" "$code $(same_body)" "200 same"

start_ns=$(date +%s%N)
get dir.a/obj-delay.bin
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
check "delay-700: answer intact" "$code $(same_body)" "200 same"
check "delay-700: took at least 700 ms" "$((elapsed_ms >= 700))" 1

for i in 1 2 3; do
  check "503 all: HEAD $i" "$("${s3[@]}" -I -o /dev/null -w '%{http_code}' "$proxy/dir.a/obj-always.bin")" 503
done
get dir.a/obj-always.bin
check "503 all: GET is another method" "$code" 200

check "'*' method: HEAD gets 500" "$("${s3[@]}" -I -o /dev/null -w '%{http_code}' "$proxy/dir.a/obj-any.bin")" 500
get dir.a/obj-any.bin
check "'*' method: GET gets 500" "$code" 500
get dir.a/obj-any.bin
check "'*' method: third request passes" "$code" 200

list="$proxy?list-type=2&prefix=dir.a/&max-keys=3"
get "$list"
check "garbage-xml: status 200" "$code" 200
check "garbage-xml: body is not XML" "$(head -c 5 "$work/body")" "this "
code="$("${s3[@]}" -o "$work/body" -w '%{http_code}' "$list")"
check "listing then passes" "$code $(grep -o '<KeyCount>[^<]*</KeyCount>' "$work/body")" \
  "200 <KeyCount>3</KeyCount>"

# The log: one line per request, in order for this one object.
check "log: obj-503 lines" "$(grep ' /'"$bucket"'/dir.a/obj-503.bin ' "$work/log" | grep '^GET' |
  awk '{print $3 "/" $4}' | paste -sd' ')" "503/503 503/503 pass/200"
check "log: reset-before line" "$(grep -c "^GET /$bucket/dir.a/obj-reset-before.bin reset-before -$" "$work/log")" 1
check "log: short-body line" "$(grep -c "^GET /$bucket/dir.a/obj-short.bin short-body 200$" "$work/log")" 1
check "log: PUT lines pass" "$(grep -c "^PUT /$bucket/dir.a/obj-.*\.bin pass 200$" "$work/log")" "${#objects[@]}"
check "log: garbage-xml line" \
  "$(grep -c "^GET /$bucket?list-type=2&prefix=dir.a/&max-keys=3 garbage-xml 200$" "$work/log")" 1

# A bad rule is a usage error.
python3 "$proxy_py" --upstream "$MOONQUOTA_S3_ENDPOINT" --port-file "$work/port2" \
  --rule 'GET:/x:teapot:1' 2>"$work/bad-rule.stderr"
check "bad rule: exit 2" "$?" 2

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed; proxy log:"
  cat "$work/log"
  exit 1
fi
echo "all fault proxy checks passed"
