#!/usr/bin/env bash
# CTest s3.addressing (issue 12): the ways an operator names a bucket, end to end against the real
# S3 server: virtual-hosted URLs (BUCKET.s3.localhost), "s3://" with MOONCAKE_AWS_BUCKET_NAME,
# the master's environment file (--s3-env-file) with the process environment and flags on top,
# the AWS_* credential fallback, and `snapshot-inspect diff` between a local and an S3 store.
# Each gives the table or report of the local copy. Skipped (77) without s3rver; fails under CI=true.
#   bash tests/s3/addressing_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
source "$(dirname "$0")/common.sh"
s3_require_server
cd "$source_dir" || exit 1
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-addressing.XXXXXX")"
trap 'rm -rf "$work"' EXIT
unset MOONCAKE_AWS_S3_ENDPOINT MOONCAKE_AWS_BUCKET_NAME MOONCAKE_AWS_ACCESS_KEY_ID MOONCAKE_AWS_SECRET_ACCESS_KEY \
  MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN
key="${MOONQUOTA_S3_ACCESS_KEY_ID:-S3RVER}"; secret="${MOONQUOTA_S3_SECRET_ACCESS_KEY:-S3RVER}"
bucket="addr-$$-$RANDOM"
MOONQUOTA_S3_ACCESS_KEY_ID="$key" MOONQUOTA_S3_SECRET_ACCESS_KEY="$secret" \
  bash tests/s3/upload_store.sh snapshots/sample/store "s3://$bucket/copy" >/dev/null || { echo "upload failed"; exit 1; }
MOONQUOTA_S3_ACCESS_KEY_ID="$key" MOONQUOTA_S3_SECRET_ACCESS_KEY="$secret" \
  bash tests/s3/upload_store.sh snapshots/inspect-diff-b/store "s3://$bucket/diff-b" >/dev/null || exit 1
t=1787375520123
rebuild=("$tools_dir/quota-rebuild" --policy snapshots/sample/policy.yaml --restore-time $t)
"${rebuild[@]}" --store snapshots/sample/store | sed 1d > "$work/local.txt"

same_table() {  # NAME FILE: FILE holds the local table after its source line
  if sed 1d "$2" | diff -q - "$work/local.txt" >/dev/null; then echo "ok   $1"; else fail "$1"; head -3 "$2"; fi
}

# Virtual-hosted: http://BUCKET.s3.localhost:PORT/KEY (the default addressing).
MOONCAKE_AWS_ACCESS_KEY_ID="$key" MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret" \
  "${rebuild[@]}" --store "s3://$bucket/copy" --s3-endpoint "$MOONQUOTA_S3_VHOST_ENDPOINT" -vv >"$work/out" 2>"$work/err"
same_table "virtual-hosted addressing" "$work/out"
grep -q "GET http://$bucket.s3.localhost:[0-9]*/copy/mooncake_master_snapshot/" "$work/err" || fail "not virtual-hosted"

# "s3:///PREFIX" takes MOONCAKE_AWS_BUCKET_NAME; path-style.
MOONCAKE_AWS_BUCKET_NAME="$bucket" MOONCAKE_AWS_S3_ENDPOINT="$MOONQUOTA_S3_ENDPOINT" \
  MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false MOONCAKE_AWS_ACCESS_KEY_ID="$key" MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret" \
  "${rebuild[@]}" --store "s3:///copy" >"$work/out"
same_table "s3:///PREFIX with MOONCAKE_AWS_BUCKET_NAME" "$work/out"
grep -q "^source:    s3://$bucket/copy " "$work/out" || fail "the source line does not name the bucket"
"${rebuild[@]}" --store "s3://" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 2 ]] && grep -q "names no bucket and MOONCAKE_AWS_BUCKET_NAME (--s3-bucket) is not set" "$work/err" ||
  fail "s3:// without a bucket: exit $rc, $(cat "$work/err")"

# The master's environment file: its values, with the process environment and flags on top.
cat > "$work/master.env" <<ENV
# mooncake master
export MOONCAKE_AWS_S3_ENDPOINT=http://127.0.0.1:1
MOONCAKE_AWS_BUCKET_NAME="$bucket"
MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING='false'
MOONCAKE_AWS_ACCESS_KEY_ID=$key
MOONCAKE_AWS_SECRET_ACCESS_KEY=$secret
ENV
"${rebuild[@]}" --store "s3:///copy" --s3-env-file "$work/master.env" --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" >"$work/out"
same_table "--s3-env-file, --s3-endpoint over it" "$work/out"
"${rebuild[@]}" --store "s3:///copy" --s3-env-file "$work/master.env" --s3-max-attempts 1 >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 4 ]] && grep -q "connection refused at http://127.0.0.1:1" "$work/err" || fail "the env file's endpoint is not used: exit $rc"
grep -qF "$secret-x" "$work/err" && fail "secret printed"
echo "MOONCAKE_AWS_USE_HTTPS=perhaps" >> "$work/master.env"
"${rebuild[@]}" --store "s3:///copy" --s3-env-file "$work/master.env" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 2 ]] && grep -q "MOONCAKE_AWS_USE_HTTPS='perhaps' is not true or false" "$work/err" || fail "a bad bool in the env file: exit $rc"

# Audit item 19: a store URL that already names the snapshot root and cluster doubles the suffix:
# exit 3 with the --store and --cluster-id that were meant.
MOONCAKE_AWS_ACCESS_KEY_ID="$key" MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false \
  "${rebuild[@]}" --store "s3://$bucket/copy/mooncake_master_snapshot/mooncake_cluster" \
  --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 3 ]] && grep -qF "try --store 's3://$bucket/copy' --cluster-id 'mooncake_cluster'" "$work/err" ||
  fail "a doubled snapshot root: exit $rc, $(cat "$work/err")"

# quota-reconcile doctor on S3: the bucket's cluster ids and snapshots; a wrong access key id
# (s3rver checks key ids) is a failed store check, exit 4, naming S3's answer.
MOONCAKE_AWS_ACCESS_KEY_ID="$key" MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false \
  "$tools_dir/quota-reconcile" doctor --store "s3://$bucket/copy" --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" \
  >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 0 ]] && grep -q "^store .* ok .*cluster ids: mooncake_cluster" "$work/out" &&
  grep -q "latest 20260822_051200_123" "$work/out" || fail "doctor on S3: exit $rc, $(cat "$work/out" "$work/err")"
MOONCAKE_AWS_ACCESS_KEY_ID="NOT-$key" MOONCAKE_AWS_SECRET_ACCESS_KEY="$secret" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false \
  "$tools_dir/quota-reconcile" doctor --store "s3://$bucket/copy" --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" \
  --s3-max-attempts 1 >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 4 ]] && grep -q "FAILED (exit 4)" "$work/out" && grep -q "hint: .*credentials" "$work/out" ||
  fail "doctor with a wrong key id: exit $rc, $(cat "$work/out" "$work/err")"
grep -qF "$secret-x" "$work/out" && fail "secret printed"

# An endpoint that is not an S3 server (etcd's HTTP port answers a plain 404): exit 4 saying so,
# never "no snapshot root".
if [[ -n "${ETCD_PORT:-}" ]]; then
  "${rebuild[@]}" --store "s3://$bucket/copy" --s3-endpoint "http://127.0.0.1:$ETCD_PORT" \
    --s3-virtual-addressing false >"$work/out" 2>"$work/err"; rc=$?
  [[ $rc == 4 ]] && grep -q "HTTP 404 without an S3 error code from http://127.0.0.1:$ETCD_PORT: not an S3 answer" "$work/err" &&
    echo "ok   a non-S3 endpoint" || fail "a non-S3 endpoint: exit $rc $(cat "$work/err")"
fi

# AWS_* credentials as the fallback.
AWS_ACCESS_KEY_ID="$key" AWS_SECRET_ACCESS_KEY="$secret" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false \
  "${rebuild[@]}" --store "s3://$bucket/copy" --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" >"$work/out"
same_table "AWS_* credentials" "$work/out"
AWS_ACCESS_KEY_ID=nobody AWS_SECRET_ACCESS_KEY="$secret" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false \
  "${rebuild[@]}" --store "s3://$bucket/copy" --s3-endpoint "$MOONQUOTA_S3_ENDPOINT" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 4 ]] && grep -q "InvalidAccessKeyId.*in use: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN" "$work/err" ||
  fail "a wrong AWS_ACCESS_KEY_ID: exit $rc $(cat "$work/err")"

# diff between a local store and an S3 store: the golden expectation of the local pair.
s3_use_test_server
case_dir=snapshots/inspect-diff-a/expected/diff-stores-json
read -r -a argv < <(sed "s#--other-store snapshots/inspect-diff-b/store#--other-store s3://$bucket/diff-b#" "$case_dir/args")
"$tools_dir/${argv[0]}" "${argv[@]:1}" >"$work/out"; rc=$?
[[ $rc == "$(cat "$case_dir/expected_exit_code")" ]] || fail "local/S3 diff: exit $rc"
sed "s#s3://$bucket/diff-b#snapshots/inspect-diff-b/store#g" "$work/out" | diff -q - "$case_dir/expected_stdout" >/dev/null &&
  echo "ok   diff between a local and an S3 store" || fail "local/S3 diff differs from the local pair's"

# The Redis catalog (ids and latest in Redis, payloads in the bucket), under a cluster id of its
# own so no other test's keys meet it.
if [[ -n "${REDIS_PORT:-}" ]]; then
  cluster="addr-$$"
  mkdir -p "$work/redis-store/mooncake_master_snapshot"
  cp -r snapshots/sample/store/mooncake_master_snapshot/mooncake_cluster "$work/redis-store/mooncake_master_snapshot/$cluster"
  MOONQUOTA_S3_ACCESS_KEY_ID="$key" MOONQUOTA_S3_SECRET_ACCESS_KEY="$secret" \
    bash tests/s3/upload_store.sh "$work/redis-store" "s3://$bucket/redis" >/dev/null || fail "upload for redis"
  ns="mooncake-store/{$cluster}/snapshot"
  redis-cli -p "$REDIS_PORT" SET "$ns/latest" 20260822_051200_123 >/dev/null
  redis-cli -p "$REDIS_PORT" ZADD "$ns/index" 1 20260822_051200_123 >/dev/null
  "${rebuild[@]}" --store "s3://$bucket/redis" --catalog redis --redis "127.0.0.1:$REDIS_PORT" \
    --cluster-id "$cluster" >"$work/out"
  same_table "the Redis catalog with an S3 store" "$work/out"
  redis-cli -p "$REDIS_PORT" DEL "$ns/latest" "$ns/index" >/dev/null
elif [[ "${CI:-}" == "true" ]]; then
  fail "REDIS_PORT unset under CI"
fi

echo "$failures failures"
[[ $failures -eq 0 ]]
