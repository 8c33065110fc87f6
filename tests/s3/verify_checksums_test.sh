#!/usr/bin/env bash
# CTest s3.verify_checksums (issue 12): a store uploaded by `snapshot-forge --out s3://`, then
#  - `snapshot-inspect verify` says when the server sent no x-amz-checksum-crc32c (s3rver keeps
#    none), and, through tests/support/s3_fault_proxy.py answering with checksums (fault
#    crc32c-VALUE), counts the objects whose CRC32C matches and reports a mismatch as an error
#    finding naming the object (exit 1), in text and JSON;
#  - `snapshot-inspect summary` shows each object's ETag (text column, JSON "etag") as listed.
# Without s3rver it is skipped (77), under CI=true it fails.
#   bash tests/s3/verify_checksums_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
source "$(dirname "$0")/common.sh"
s3_require_server
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-checksums.XXXXXX")"
trap 'stop_proxy; rm -rf "$work"' EXIT
# has NAME FILE LINE: FILE holds LINE exactly.
has() { grep -qxF -- "$3" "$work/$2" || { fail "$1: $2 lacks '$3'"; sed 's/^/    /' "$work/$2" | head -20; }; }

export MOONCAKE_AWS_S3_ENDPOINT="$MOONQUOTA_S3_ENDPOINT" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false
export MOONCAKE_AWS_ACCESS_KEY_ID="${MOONQUOTA_S3_ACCESS_KEY_ID:-S3RVER}"
export MOONCAKE_AWS_SECRET_ACCESS_KEY="${MOONQUOTA_S3_SECRET_ACCESS_KEY:-S3RVER}"
bucket="checksums-$$-$RANDOM"
store="s3://$bucket/copy"
scenario="$source_dir/snapshots/sample/scenario.json"
"$tools_dir/snapshot-forge" "$scenario" --out "$work/local" || { echo "local forge failed"; exit 1; }
"$tools_dir/snapshot-forge" "$scenario" --out "$store" -q || { echo "forge to $store failed"; exit 1; }
id=20260822_051200_123
dir="$work/local/mooncake_master_snapshot/mooncake_cluster/$id"
url="$store/mooncake_master_snapshot/mooncake_cluster/$id"
files=(metadata segments task_manager manifest.txt descriptor.txt)
# The base64 CRC32C of a file, as x-amz-checksum-crc32c carries it.
crc32c() {
  python3 - "$1" <<'PY'
import base64, struct, sys
crc = 0xFFFFFFFF
table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    table.append(c)
for b in open(sys.argv[1], "rb").read():
    crc = (crc >> 8) ^ table[(crc ^ b) & 0xFF]
print(base64.b64encode(struct.pack(">I", crc ^ 0xFFFFFFFF)).decode())
PY
}
declare -A crc=()
for f in "${files[@]}"; do crc[$f]="$(crc32c "$dir/$f")"; done

# inspect NAME RULE... -- ARGS...: snapshot-inspect through a fresh proxy with RULEs.
inspect() {
  local name="$1"; shift
  local rules=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do rules+=(--rule "$1"); shift; done
  shift
  start_proxy "$work" "${rules[@]}"
  timeout 120 "$tools_dir/snapshot-inspect" "$@" --s3-endpoint "$proxy_endpoint" \
    >"$work/out" 2>"$work/err"
  rc=$?
  stop_proxy
}

# s3rver stores no checksums: verify says so and passes.
"$tools_dir/snapshot-inspect" verify --store "$store" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 0 ]] || fail "no checksums: exit $rc"
has "no checksums" out "checksums:   the server sent no x-amz-checksum-crc32c: objects not checked"
has "no checksums" out "verdict:     passed (0 errors, 0 warnings, 0 info)"
"$tools_dir/snapshot-inspect" verify --store "$store" --format json >"$work/out" 2>"$work/err"
python3 - "$work/out" <<'PY' || fail "no checksums: JSON s3_crc32c"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["s3_crc32c"] == {"checked": 0, "mismatched": 0, "without_server_checksum": 5, "not_read_whole": 0}, j["s3_crc32c"]
PY
# A local store: no checksums line, no s3_crc32c member.
"$tools_dir/snapshot-inspect" verify --store "$work/local" >"$work/out"
grep -q "^checksums:" "$work/out" && fail "local: a checksums line"
"$tools_dir/snapshot-inspect" verify --store "$work/local" --format json >"$work/out"
grep -q "s3_crc32c" "$work/out" && fail "local: an s3_crc32c member"

# The right checksum for every object: all five checked.
right=()
for f in "${files[@]}"; do right+=("*:/$id/$f:crc32c-${crc[$f]}:all"); done
inspect "all match" "${right[@]}" -- verify --store "$store"
[[ $rc == 0 ]] || fail "all match: exit $rc"
has "all match" out "checksums:   5 objects CRC32C-checked against the server"
has "all match" out "verdict:     passed (0 errors, 0 warnings, 0 info)"

# descriptor.txt with another checksum: an error finding naming it, exit 1.
inspect "mismatch" "*:/$id/descriptor.txt:crc32c-AAAAAA==:all" "${right[@]}" -- verify --store "$store"
[[ $rc == 1 ]] || fail "mismatch: exit $rc"
has "mismatch" out "checksums:   5 objects CRC32C-checked against the server, 1 mismatch"
has "mismatch" out "error    [object-crc32c] $url/descriptor.txt: CRC32C mismatch: the server's x-amz-checksum-crc32c is AAAAAA==, the bytes read give ${crc[descriptor.txt]}"
has "mismatch" out "verdict:     FAILED (1 errors, 0 warnings, 0 info)"
inspect "mismatch json" "*:/$id/descriptor.txt:crc32c-AAAAAA==:all" "${right[@]}" -- verify --store "$store" --format json
[[ $rc == 1 ]] || fail "mismatch json: exit $rc"
python3 - "$work/out" "$url/descriptor.txt" "${crc[descriptor.txt]}" <<'PY' || fail "mismatch: JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["s3_crc32c"] == {"checked": 5, "mismatched": 1, "without_server_checksum": 0, "not_read_whole": 0}, j["s3_crc32c"]
f = [f for f in j["findings"] if f["rule"] == "object-crc32c"]
assert len(f) == 1 and f[0]["location"] == sys.argv[2] and f[0]["severity"] == "error", f
assert f[0]["message"].endswith("is AAAAAA==, the bytes read give " + sys.argv[3]), f
PY

# summary: the ETag of each object, as the listing gives it (s3rver: the MD5 of a single PUT).
"$tools_dir/snapshot-inspect" summary --store "$store" >"$work/out" 2>"$work/err"; rc=$?
[[ $rc == 0 ]] || fail "summary: exit $rc"
grep -qE '^file +bytes +decompressed  etag$' "$work/out" || fail "summary: no etag column"
for f in "${files[@]}"; do
  md5="$(md5sum < "$dir/$f" | cut -d' ' -f1)"
  grep -qE "^${f//./\\.} .* \"$md5\"$" "$work/out" || fail "summary: $f lacks ETag \"$md5\""
done
"$tools_dir/snapshot-inspect" summary --store "$store" --format json >"$work/out"
python3 - "$work/out" "$dir" <<'PY' || fail "summary: JSON etag"
import hashlib, json, sys
j = json.load(open(sys.argv[1]))
for f in j["files"]:
    want = '"' + hashlib.md5(open(sys.argv[2] + "/" + f["name"], "rb").read()).hexdigest() + '"'
    assert f["etag"] == want, (f, want)
PY
"$tools_dir/snapshot-inspect" summary --store "$work/local" --format json >"$work/out"
grep -q '"etag"' "$work/out" && fail "local summary: an etag member"

echo "$failures failures"
[[ $failures -eq 0 ]]
