#!/usr/bin/env bash
# CTest s3.upload_store: tests/s3/upload_store.sh against the real s3rver of
# scripts/with-services.sh. Uploads a golden store under a prefix and a directory with awkward
# names, then reads every object back and compares it byte for byte with its file; an
# unreachable endpoint is exit 1. Without s3rver (S3_PORT unset) it is skipped (exit 77), or
# fails under CI=true.
#   bash tests/s3/upload_store_test.sh SOURCE_DIR
set -uo pipefail
source_dir="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
upload="$source_dir/tests/s3/upload_store.sh"

source "$source_dir/tests/s3/common.sh"
s3_require_server

work="$(mktemp -d "${TMPDIR:-/tmp}/upload-store-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
s3=(curl -sS --aws-sigv4 "aws:amz:us-east-1:s3"
  --user "$MOONQUOTA_S3_ACCESS_KEY_ID:$MOONQUOTA_S3_SECRET_ACCESS_KEY"
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")

# compare_tree DIR BUCKET PREFIX: every file of DIR is the object PREFIX/<relative path>, and
# the listing under PREFIX holds exactly as many keys.
compare_tree() {
  local dir="$1" bucket="$2" prefix="$3" count=0 rel encoded
  while IFS= read -r -d '' file; do
    rel="${file#"$dir"/}"
    encoded="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe="/-_.~"))' \
      "${prefix:+$prefix/}$rel")"
    if ! "${s3[@]}" -f -o "$work/got" "$MOONQUOTA_S3_ENDPOINT/$bucket/$encoded" ||
      ! cmp -s "$file" "$work/got"; then
      fail "s3://$bucket/${prefix:+$prefix/}$rel differs from $file"
    fi
    count=$((count + 1))
  done < <(find "$dir" -type f -print0)
  local listed
  listed="$("${s3[@]}" "$MOONQUOTA_S3_ENDPOINT/$bucket?list-type=2&prefix=${prefix:+$prefix/}" |
    grep -o '<Key>' | wc -l)"
  [[ "$listed" == "$count" ]] || fail "s3://$bucket/$prefix lists $listed keys, $dir holds $count files"
  echo "checked $count objects of s3://$bucket${prefix:+/$prefix}"
}

bucket="upload-store-test-$$-$RANDOM"
store="$source_dir/snapshots/quota-worked-example/store"
out="$(bash "$upload" "$store" "s3://$bucket/golden/quota-worked-example")" || fail "upload of $store"
[[ "$out" == "uploaded 6 objects to s3://$bucket/golden/quota-worked-example" ]] || fail "summary line: $out"
compare_tree "$store" "$bucket" golden/quota-worked-example
# At the root of a second bucket, twice (the second time the bucket exists).
bash "$upload" "$store" "s3://$bucket-root" >/dev/null || fail "upload at a bucket root"
bash "$upload" "$store" "s3://$bucket-root" >/dev/null || fail "second upload into an existing bucket"
compare_tree "$store" "$bucket-root" ""

mkdir -p "$work/odd/dir.with.dots/sub dir"
printf 'a' >"$work/odd/dir.with.dots/sub dir/a b+c%d=e.txt"
: >"$work/odd/empty"
head -c 3000000 /dev/urandom >"$work/odd/dir.with.dots/big.bin"
bash "$upload" "$work/odd" "s3://$bucket/odd/" >/dev/null || fail "upload of awkward names"
compare_tree "$work/odd" "$bucket" odd

MOONQUOTA_S3_ENDPOINT="http://127.0.0.1:1" bash "$upload" "$store" "s3://$bucket" 2>/dev/null
rc=$?
[[ $rc -eq 1 ]] || fail "unreachable endpoint: exit $rc, expected 1"
bash "$upload" "$store" "not-a-url" 2>/dev/null
rc=$?
[[ $rc -eq 2 ]] || fail "bad URL: exit $rc, expected 2"

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all upload_store checks passed"
