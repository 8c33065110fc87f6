#!/usr/bin/env bash
# Test helper (issue 12): copies a local snapshot store directory into a bucket, as a master with
# an S3 store would hold it. Every regular file under SRC_DIR becomes the object
# PREFIX/<path relative to SRC_DIR> (no PREFIX: the relative path itself), so
#   upload_store.sh snapshots/quota-worked-example/store s3://golden/quota-worked-example
# gives keys golden/quota-worked-example/mooncake_master_snapshot/<cluster>/... . The bucket is
# created when missing. Objects already in the bucket are left alone (use a fresh bucket or prefix).
#   tests/s3/upload_store.sh SRC_DIR s3://BUCKET[/PREFIX]
# Server and credentials: MOONQUOTA_S3_ENDPOINT (http://HOST:PORT, path-style addressing),
# MOONQUOTA_S3_ACCESS_KEY_ID, MOONQUOTA_S3_SECRET_ACCESS_KEY (scripts/with-services.sh exports all
# three), MOONQUOTA_S3_REGION (default us-east-1). One curl process uploads every file over one
# connection. Prints "uploaded N objects to s3://BUCKET/PREFIX". Exit 0, 1 on a failed upload,
# 2 on a usage error.
set -euo pipefail

usage() { echo "usage: $0 SRC_DIR s3://BUCKET[/PREFIX]   (needs MOONQUOTA_S3_ENDPOINT)" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
src="$1"
url="$2"
[[ -d "$src" ]] || { echo "upload_store: $src is not a directory" >&2; exit 2; }
[[ "$url" == s3://?* ]] || { echo "upload_store: $url is not s3://BUCKET[/PREFIX]" >&2; exit 2; }
endpoint="${MOONQUOTA_S3_ENDPOINT:-}"
[[ -n "$endpoint" ]] || { echo "upload_store: MOONQUOTA_S3_ENDPOINT is not set (run under scripts/with-services.sh)" >&2; exit 2; }
endpoint="${endpoint%/}"
rest="${url#s3://}"
bucket="${rest%%/*}"
prefix=""
[[ "$rest" == */* ]] && prefix="${rest#*/}"
prefix="${prefix%/}"

work="$(mktemp -d "${TMPDIR:-/tmp}/upload-store.XXXXXX")"
trap 'rm -rf "$work"' EXIT
s3=(curl -sS --aws-sigv4 "aws:amz:${MOONQUOTA_S3_REGION:-us-east-1}:s3"
  --user "${MOONQUOTA_S3_ACCESS_KEY_ID:-}:${MOONQUOTA_S3_SECRET_ACCESS_KEY:-}"
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")

# The bucket: 200 created; 409 BucketAlreadyExists (s3rver) or BucketAlreadyOwnedByYou (AWS) is ours.
code="$("${s3[@]}" -X PUT -o "$work/create.xml" -w '%{http_code}' "$endpoint/$bucket")" || true
touch "$work/create.xml"
if [[ "$code" != 200 ]] && ! { [[ "$code" == 409 ]] &&
  grep -Eq '<Code>(BucketAlreadyExists|BucketAlreadyOwnedByYou)</Code>' "$work/create.xml"; }; then
  echo "upload_store: creating bucket $bucket at $endpoint: HTTP $code $(cat "$work/create.xml")" >&2
  exit 1
fi

# One curl config with an upload-file/url pair per file; keys are percent-encoded per segment.
python3 - "$src" "$endpoint" "$bucket" "$prefix" >"$work/curl.cfg" <<'EOF'
import os, sys, urllib.parse
src, endpoint, bucket, prefix = sys.argv[1:5]
def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
count = 0
for root, dirs, files in os.walk(src):
    dirs.sort()
    for name in sorted(files):
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        key = os.path.relpath(path, src).replace(os.sep, "/")
        if prefix:
            key = prefix + "/" + key
        target = f"{endpoint}/{urllib.parse.quote(bucket)}/{urllib.parse.quote(key, safe='/-_.~')}"
        print(f"upload-file = {quoted(path)}")
        print(f"url = {quoted(target)}")
        print('write-out = "%{http_code} %{url_effective}\\n"')
        print('output = "/dev/null"')
        count += 1
if count == 0:
    sys.exit(f"upload_store: {src} holds no files")
EOF
"${s3[@]}" -K "$work/curl.cfg" >"$work/results" || true
total=$(grep -c '^upload-file' "$work/curl.cfg")
ok=$(grep -c '^200 ' "$work/results" || true)
if [[ "$ok" != "$total" ]]; then
  echo "upload_store: $((total - ok)) of $total uploads to $endpoint failed:" >&2
  grep -v '^200 ' "$work/results" >&2 || true
  exit 1
fi
echo "uploaded $total objects to s3://$bucket${prefix:+/$prefix}"
