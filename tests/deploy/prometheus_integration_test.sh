#!/usr/bin/env bash
# deploy.prometheus_integration: Debian's prometheus server on loopback scrapes the moonquota
# tools' real Prometheus textfiles, evaluates deploy/prometheus/moonquota-rules.yml, and the test
# sees the drift alert fire and resolve and MoonquotaMasterWouldStartEmpty fire through its HTTP
# API; every query of deploy/grafana/moonquota-dashboard.json runs against it. Details in
# prometheus_integration.py.
# Usage: prometheus_integration_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/common.sh"
require_program prometheus prometheus
require_program python3 python3
exec python3 "$(dirname "$0")/prometheus_integration.py" "$@"
