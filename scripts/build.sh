#!/usr/bin/env bash
# Configures and builds moonquota. Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# Default build dir: build (RelWithDebInfo).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
shift || true
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)"
