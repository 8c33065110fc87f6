#!/usr/bin/env bash
# Quick start: install what the tools need (no test servers), build only the six tools, and
# print the account table a Mooncake master would serve after restoring the bundled sample store.
# Extra arguments go to quota-rebuild (e.g. --format json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tools >&2  # stdout carries only the table
bash scripts/build.sh build -DMOONQUOTA_BUILD_TESTS=OFF -DMOONQUOTA_BUILD_BENCH=OFF -DMOONQUOTA_MAN_PAGES=OFF >&2
exec build/tools/quota-rebuild --store snapshots/sample/store --policy snapshots/sample/policy.yaml \
  --restore-time "$(cat snapshots/sample/restore_time_ms)" "$@"
