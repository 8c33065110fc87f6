#!/usr/bin/env bash
# Benchmark (issue 12): quota-rebuild of one forged store from local files and from the S3 server
# on loopback (s3rver, under scripts/with-services.sh), same threads; wall time and peak RSS of
# each (GNU time), best of RUNS, and where the S3 run's time goes: the download alone (curl GETs
# of every object, one stream) against the local rebuild (the decode alone).
#   scripts/with-services.sh bash bench/s3_rebuild.sh [OBJECTS (2000000)] [THREADS (2)] [RUNS (3)]
# Tools from build/tools (override with TOOLS=DIR). Prints a Markdown table. A run that fails ends
# the script (exit 1, its stderr shown); the numbers must be positive integers (exit 2).
set -euo pipefail
objects="${1:-2000000}"; threads="${2:-2}"; runs="${3:-3}"
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$here/bench/bench_lib.sh"
bench_positive_integers "OBJECTS THREADS RUNS" "$objects" "$threads" "$runs"
tools="${TOOLS:-$here/build/tools}"
[[ -n "${MOONQUOTA_S3_ENDPOINT:-}" ]] || { echo "run under scripts/with-services.sh" >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export MOONCAKE_AWS_S3_ENDPOINT="$MOONQUOTA_S3_ENDPOINT" MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING=false
export MOONCAKE_AWS_ACCESS_KEY_ID="${MOONQUOTA_S3_ACCESS_KEY_ID:-S3RVER}"
export MOONCAKE_AWS_SECRET_ACCESS_KEY="${MOONQUOTA_S3_SECRET_ACCESS_KEY:-S3RVER}"
"$tools/snapshot-forge" --large "$objects" --out "$work/store" -q
bucket="bench-$$"
bash "$here/tests/s3/upload_store.sh" "$work/store" "s3://$bucket" >/dev/null
t=1787375520123

read -r local_s _ _ local_kb < <(bench_best "$runs" 0 local "$tools/quota-rebuild" --store "$work/store" --threads "$threads" --restore-time $t)
read -r s3_s _ _ s3_kb < <(bench_best "$runs" 0 s3 "$tools/quota-rebuild" --store "s3://$bucket" --threads "$threads" --restore-time $t)
sed 1d "$work/out.local" | diff -q - <(sed 1d "$work/out.s3") >/dev/null || { echo "the tables differ" >&2; exit 1; }
rows=""
for w in 8 128; do
  read -r ws _ _ wkb < <(bench_best "$runs" 0 "w$w" "$tools/quota-rebuild" --store "s3://$bucket" --threads "$threads" --restore-time $t --s3-window-mib "$w")
  rows+="| s3://, --s3-window-mib $w | $ws | $((wkb / 1024)) |"$'\n'
done
# The download alone: every object of the store fetched whole by curl, one after another.
dl_start=$(date +%s.%N)
while IFS= read -r -d '' f; do
  curl -s --aws-sigv4 "aws:amz:us-east-1:s3" --user "$MOONCAKE_AWS_ACCESS_KEY_ID:$MOONCAKE_AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -o /dev/null "$MOONQUOTA_S3_ENDPOINT/$bucket/${f#"$work/store/"}"
done < <(find "$work/store" -type f -print0)
dl_s=$(awk -v a="$(date +%s.%N)" -v b="$dl_start" 'BEGIN{printf "%.2f", a-b}')
bytes=$(du -sb "$work/store" | cut -f1)

echo "store: $objects objects, $bytes bytes; threads $threads; best of $runs runs"
echo
echo "| run | wall s | peak RSS MiB |"
echo "|---|---|---|"
echo "| local files | $local_s | $((local_kb / 1024)) |"
echo "| s3:// (default window 32 MiB) | $s3_s | $((s3_kb / 1024)) |"
printf '%s' "$rows"
echo "| download alone (curl, whole objects, sequential) | $dl_s | — |"
echo
awk -v s="$s3_s" -v l="$local_s" -v sk="$s3_kb" -v lk="$local_kb" \
  'BEGIN{printf "s3/local wall: %.2fx; RSS above local: %d MiB\n", s/l, (sk-lk)/1024}'
