#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the packages, checks the
# formatting (scripts/check-format.sh) and the include rule (scripts/check-layers.sh), builds,
# runs every test with CTest (unit, golden, corpus replay, scripts, packaging, deploy examples),
# then builds again under ASan+UBSan and runs every test of our C++ code again (not those labelled
# package, deploy or static, which check packaging, deployment files and the source tree and ran
# in the first pass). Both CTest passes run inside scripts/with-services.sh (a private etcd,
# redis-server and s3rver on free loopback ports). Each step says how long it took.
# Usage: scripts/test.sh [--quick]   (--quick: skip the sanitizer build and its pass)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

step() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - start)) s" >&2
}

step setup bash scripts/setup.sh
step check-format bash scripts/check-format.sh
step check-layers bash scripts/check-layers.sh
step build bash scripts/build.sh build -DMOONQUOTA_WERROR=ON -DMOONQUOTA_BUILD_TESTS=ON -DMOONQUOTA_BUILD_BENCH=ON \
  -DMOONQUOTA_MAN_PAGES=ON
step ctest bash scripts/with-services.sh bash -c 'cd build && ctest --output-on-failure --parallel "$(nproc)"'

if [[ $quick -eq 0 ]]; then
  # -O1: ASan's own advice for usable speed; -g1: line tables, all a sanitizer report needs.
  step build-asan bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=Debug '-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1' \
    -DMOONQUOTA_SANITIZE=ON -DMOONQUOTA_WERROR=ON -DMOONQUOTA_BUILD_TESTS=ON -DMOONQUOTA_BUILD_BENCH=OFF \
    -DMOONQUOTA_MAN_PAGES=OFF
  step ctest-asan bash scripts/with-services.sh bash -c 'cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
     UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure --parallel "$(nproc)" \
     --label-exclude "^(slow|package|deploy|static)$"'
fi
