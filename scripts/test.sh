#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the packages, checks the
# formatting (scripts/check-format.sh) and the include rule (scripts/check-layers.sh), builds,
# runs every test with CTest (unit, golden, corpus replay), then again under ASan+UBSan. Both
# CTest passes run inside scripts/with-services.sh (a private etcd, redis-server and s3rver on free
# loopback ports).
# Usage: scripts/test.sh [--quick]   (--quick: skip the sanitizer build)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

bash scripts/setup.sh
bash scripts/check-format.sh
bash scripts/check-layers.sh
bash scripts/build.sh build -DMOONQUOTA_WERROR=ON
bash scripts/with-services.sh bash -c 'cd build && ctest --output-on-failure --parallel "$(nproc)"'

if [[ $quick -eq 0 ]]; then
  bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DMOONQUOTA_SANITIZE=ON -DMOONQUOTA_WERROR=ON
  bash scripts/with-services.sh bash -c 'cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure --parallel "$(nproc)" --label-exclude slow'
fi
