#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs each for a while:
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the time per target; TARGETs are names without the fuzz_ prefix
# (default: every tests/fuzz/fuzz_*.cpp). Targets run one after another, each as one job at
# `nice -n 19`, starting from its committed corpus (tests/fuzz/corpus/<name>/) plus a work corpus in
# ${FUZZ_WORK:-/tmp/moonquota-fuzz}/<name>/ where new coverage is kept. -max_len is 1 MiB so the
# depth and size attacks of issue 11 (items 23-26) are in reach; override with FUZZ_MAX_LEN.
# A crash leaves crash-* in the work directory and stops the script (exit 1): add the input to the
# corpus as regression-<what> with a fix and a unit test (tests/fuzz/README.md). Two runs at once
# must not both be building build-fuzz/: start the second when the first is fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2
  exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in tests/fuzz/fuzz_*.cpp; do
    name="$(basename "$src" .cpp)"
    targets+=("${name#fuzz_}")
  done
fi
for t in "${targets[@]}"; do
  if [ ! -f "tests/fuzz/fuzz_$t.cpp" ]; then
    echo "fuzz.sh: no target '$t' (tests/fuzz/fuzz_$t.cpp)" >&2
    exit 2
  fi
done

build_dir="${FUZZ_BUILD_DIR:-build-fuzz}"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ ! -f "$build_dir/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build_dir" -G Ninja -DMOONQUOTA_FUZZ=ON -DMOONQUOTA_SANITIZE=ON \
    "${launcher[@]}" >/dev/null
fi
ninja -C "$build_dir" "${targets[@]/#/fuzz_}"
build_dir="$(cd "$build_dir" && pwd)"  # the targets run from their work directories

work_root="${FUZZ_WORK:-/tmp/moonquota-fuzz}"
max_len="${FUZZ_MAX_LEN:-1048576}"
for t in "${targets[@]}"; do
  work="$work_root/$t"
  mkdir -p "$work"
  corpus="tests/fuzz/corpus/$t"
  echo "== fuzz_$t for ${seconds}s (work corpus $work)"
  (cd "$work" && nice -n 19 "$build_dir/tests/fuzz_$t" -max_total_time="$seconds" -max_len="$max_len" \
    -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 "$work" "$OLDPWD/$corpus")
done
