#!/usr/bin/env bash
# Every golden case that reads a snapshot store, run again with that store read from a real S3
# server (issue 12): each store the cases name is copied into a fresh bucket under its own path,
# the case's --store/--snapshot-dir/--other-store become s3:// URLs, and stdout, stderr needles and
# the exit code must equal the local expectations once the URLs are mapped back to the paths. So
# every report from s3:// equals the local one byte for byte apart from the source it names.
# Needs the S3 server of scripts/with-services.sh (MOONQUOTA_S3_ENDPOINT): without it the test is
# skipped (exit 77), except under CI=true where it fails.
# Usage: golden_from_s3.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
source "$(dirname "$0")/common.sh"
s3_require_server
s3_use_test_server
bucket="golden-$$-$RANDOM"
s3=(curl -sS --fail-with-body --aws-sigv4 "aws:amz:us-east-1:s3"
    --user "$MOONCAKE_AWS_ACCESS_KEY_ID:$MOONCAKE_AWS_SECRET_ACCESS_KEY" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
"${s3[@]}" -X PUT "$MOONQUOTA_S3_ENDPOINT/$bucket" -o /dev/null || { echo "cannot create bucket $bucket"; exit 1; }

# Cases that cannot mean the same from a bucket (a local-only condition), with the reason.
declare -A local_only=(
)

cd "$source_dir" || exit 1
mapfile -t cases < <(ls -d tests/golden/cases/*/ snapshots/*/expected/*/ | sed 's|/$||' | sort)
declare -A uploaded=()
upload_tree() {  # the files below a local directory, each under the same path in the bucket
  local dir="$1"
  [[ -n "${uploaded[$dir]:-}" ]] && return 0
  uploaded[$dir]=1
  [[ -d "$dir" ]] || return 0
  while IFS= read -r -d '' file; do
    "${s3[@]}" -T "$file" "$MOONQUOTA_S3_ENDPOINT/$bucket/$file" -o /dev/null || { echo "upload of $file failed"; return 1; }
  done < <(find "$dir" -type f -print0)
}

# What only an object store adds (docs/cli/snapshot-inspect.md): verify's checksums line and
# "s3_crc32c" member, summary's etag column and "etag" members. Removed before the comparison; the
# rest must be the local bytes.
s3_only_sed='/^checksums:   /d;/^  "s3_crc32c": \{$/,/^  \},?$/d;/^ +"etag": /d;s/,"etag":"([^"\\]|\\.)*"//g;'
s3_only_sed+='s/^(file +bytes +decompressed)  etag$/\1/;s/^(-{14}  -+  -{12,})  -+$/\1/;'
s3_only_sed+='s/^((metadata|segments|task_manager|manifest\.txt|descriptor\.txt) .*[^ ]) +"[^"]*"$/\1/;'

ran=0; failed=0
for case_dir in "${cases[@]}"; do
  args="$(cat "$case_dir/args")"
  mapfile -t paths < <(grep -o -E -- '--(store|snapshot-dir|other-store)[ =][^ ]+' <<<"$args" | sed -E 's/^--[a-z-]+[ =]//' | sort -u)
  ((${#paths[@]})) || continue
  name="${case_dir#tests/golden/cases/}"
  if [[ -n "${local_only[$name]:-}" ]]; then echo "skip $name: ${local_only[$name]}"; continue; fi
  args_sed=""; out_sed=""
  for p in "${paths[@]}"; do
    upload_tree "$p" || exit 1
    q="$(sed 's/[.[\*^$|]/\\&/g' <<<"$p")"
    args_sed+="s#(--(store|snapshot-dir|other-store)[ =])$q( |\$)#\\1s3://$bucket/$p\\3#g;"
    out_sed+="s#s3://$bucket/$q#$p#g;"
  done
  out_sed+="$s3_only_sed"
  [[ -n "${GOLDEN_S3_TRACE:-}" ]] && echo "$name: $(sed -E -e "$args_sed" "$case_dir/args")"
  ran=$((ran + 1))
  if ! out="$(GOLDEN_ARGS_SED="$args_sed" GOLDEN_OUTPUT_SED="$out_sed" bash tests/golden/run_case.sh "$tools_dir" "$source_dir" "$case_dir" 2>&1)"; then
    failed=$((failed + 1))
    echo "FAIL $name"; echo "$out" | head -40
  fi
done
echo "$ran cases run from s3://$bucket, $failed failed"
[[ $ran -gt 0 && $failed -eq 0 ]]
