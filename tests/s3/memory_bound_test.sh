#!/usr/bin/env bash
# CTest s3.memory_bound (issue 12): streaming from S3 holds at most the download window, never
# the object. A forged store of 1M objects (metadata ~54 MB) is rebuilt from local files and
# from the real S3 server with a 2 MiB window; the S3 run's peak RSS (GNU time) must stay within
# the local run's plus 2 windows plus 16 MiB (curl, its TLS/connection state, the prefetch
# thread), far below the metadata's size, which a whole-object read would add. Skipped (77)
# without s3rver or under the sanitizers (argument 2 = ON), failed without s3rver under CI=true.
#   bash tests/s3/memory_bound_test.sh TOOLS_DIR SANITIZED(ON|OFF) SOURCE_DIR
set -uo pipefail
tools_dir="$1"; sanitized="$2"; source_dir="$3"
if [[ "$sanitized" == "ON" ]]; then echo "peak RSS is not measured under the sanitizers"; exit 77; fi
source "$(dirname "$0")/common.sh"
s3_require_server
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-memory.XXXXXX")"
trap 'rm -rf "$work"' EXIT
s3_use_test_server
"$tools_dir/snapshot-forge" --large 1000000 --out "$work/store" -q || exit 1
bucket="memory-$$-$RANDOM"
bash "$source_dir/tests/s3/upload_store.sh" "$work/store" "s3://$bucket" >/dev/null || exit 1
metadata_kib=$(( $(stat -c %s "$work/store"/mooncake_master_snapshot/mooncake_cluster/*/metadata) / 1024 ))
t=1787375520123
/usr/bin/time -f "%M" -o "$work/local.rss" "$tools_dir/quota-rebuild" --store "$work/store" --threads 2 \
  --restore-time $t > "$work/local.txt" || exit 1
/usr/bin/time -f "%M" -o "$work/s3.rss" "$tools_dir/quota-rebuild" --store "s3://$bucket" --threads 2 \
  --restore-time $t --s3-window-mib 2 > "$work/s3.txt" || exit 1
diff <(sed 1d "$work/local.txt") <(sed 1d "$work/s3.txt") || { echo "FAIL: the tables differ"; exit 1; }
local_kib=$(tail -1 "$work/local.rss"); s3_kib=$(tail -1 "$work/s3.rss")
bound=$((local_kib + 2 * 2048 + 16384))
echo "metadata $metadata_kib KiB; peak RSS local $local_kib KiB, s3 $s3_kib KiB (bound $bound KiB)"
[[ $metadata_kib -gt 32768 ]] || { echo "FAIL: the store is too small to tell"; exit 1; }
[[ $s3_kib -le $bound ]] || { echo "FAIL: the S3 read holds more than its window"; exit 1; }
echo ok
