#!/usr/bin/env bash
# CTest s3.https (issue 12): a store read over HTTPS. A second s3rver (the pinned one of
# scripts/setup.sh) serves TLS with a certificate made here for 127.0.0.1 and *.localhost by
# openssl; quota-rebuild trusts it through --s3-ca-file or AWS_CA_BUNDLE and prints the local
# table; without the CA it fails with exit 4 saying the certificate is not trusted (never a
# table, never the secret); a plain-HTTP client against it is a clear error too.
# Skipped (77) without s3rver or openssl; failed without them under CI=true.
#   bash tests/s3/https_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
s3rver_bin="$source_dir/scripts/s3rver/node_modules/.bin/s3rver"
if [[ ! -x "$s3rver_bin" ]] || ! command -v node >/dev/null || ! command -v openssl >/dev/null; then
  echo "no s3rver (scripts/setup.sh) or openssl"
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
fi
cd "$source_dir" || exit 1
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-https.XXXXXX")"
server_pid=""
trap '[[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 1 \
  -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,DNS:*.localhost,IP:127.0.0.1" 2>/dev/null ||
  { echo "openssl failed"; exit 1; }
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
mkdir "$work/data"
node_options=""
node --openssl-legacy-provider -e '' >/dev/null 2>&1 && node_options="--openssl-legacy-provider"
NODE_OPTIONS="$node_options" "$s3rver_bin" --directory "$work/data" --address 127.0.0.1 --port "$port" \
  --key "$work/key.pem" --cert "$work/cert.pem" --silent >"$work/s3rver.log" 2>&1 &
server_pid=$!
endpoint="https://127.0.0.1:$port"
s3=(curl -sS --cacert "$work/cert.pem" --aws-sigv4 "aws:amz:us-east-1:s3" --user S3RVER:S3RVER
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
for _ in $(seq 1 100); do "${s3[@]}" -o /dev/null "$endpoint/" 2>/dev/null && break; sleep 0.1; done
"${s3[@]}" -X PUT -o /dev/null "$endpoint/tls" || { echo "cannot create the bucket"; exit 1; }
(cd snapshots/sample/store && find . -type f | sed 's|^\./||' | while read -r f; do
  "${s3[@]}" -T "$f" -o /dev/null "$endpoint/tls/$f" || exit 1
done) || { echo "upload failed"; exit 1; }

export MOONCAKE_AWS_ACCESS_KEY_ID=S3RVER MOONCAKE_AWS_SECRET_ACCESS_KEY="sEcReT-$$"
unset AWS_CA_BUNDLE
rebuild=("$tools_dir/quota-rebuild" --policy snapshots/sample/policy.yaml --restore-time 1787375520123 --store s3://tls)
"$tools_dir/quota-rebuild" --policy snapshots/sample/policy.yaml --restore-time 1787375520123 \
  --store snapshots/sample/store | sed 1d > "$work/local.txt"

"${rebuild[@]}" --s3-endpoint "$endpoint" --s3-ca-file "$work/cert.pem" >"$work/out" 2>"$work/err" &&
  sed 1d "$work/out" | diff -q - "$work/local.txt" >/dev/null && echo "ok   https with --s3-ca-file" ||
  { fail "https with --s3-ca-file"; cat "$work/err"; }
AWS_CA_BUNDLE="$work/cert.pem" "${rebuild[@]}" --s3-endpoint "127.0.0.1:$port" >"$work/out" 2>"$work/err" &&
  sed 1d "$work/out" | diff -q - "$work/local.txt" >/dev/null && echo "ok   https by default with AWS_CA_BUNDLE" ||
  { fail "https with AWS_CA_BUNDLE"; cat "$work/err"; }
"${rebuild[@]}" --s3-endpoint "$endpoint" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 4 && ! -s "$work/out" ]] && grep -q "the TLS certificate of the endpoint is not trusted (give its CA with --s3-ca-file or AWS_CA_BUNDLE)" "$work/err" &&
  echo "ok   an untrusted certificate" || { fail "untrusted certificate: exit $rc"; cat "$work/err"; }
[[ $(grep -c "attempt" "$work/err") == 0 ]] || fail "an untrusted certificate was retried"
"${rebuild[@]}" --s3-endpoint "127.0.0.1:$port" --s3-https false --s3-max-attempts 1 >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 4 && ! -s "$work/out" ]] && echo "ok   plain HTTP to a TLS port: exit 4 ($(head -c 120 "$work/err"))" ||
  { fail "plain HTTP to TLS: exit $rc"; cat "$work/err"; }
"${rebuild[@]}" --s3-endpoint "$endpoint" --s3-ca-file "$work/none.pem" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 2 ]] && grep -q "none.pem" "$work/err" && echo "ok   a missing --s3-ca-file is a usage error" || fail "missing CA file: exit $rc"
grep -qF "sEcReT-$$" "$work/err" && fail "secret printed"

echo "$failures failures"
[[ $failures -eq 0 ]]
