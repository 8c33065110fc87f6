#!/usr/bin/env bash
# Quick start: install the packages, build, and print the account table a Mooncake master
# would serve after restoring the bundled sample store.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build >/dev/null
exec build/tools/quota-rebuild --store snapshots/sample/store --policy snapshots/sample/policy.yaml \
  --restore-time "$(cat snapshots/sample/restore_time_ms)" "$@"
