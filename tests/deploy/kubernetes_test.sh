#!/usr/bin/env bash
# deploy.kubernetes: every manifest of deploy/kubernetes parses and has the fields Kubernetes and
# the tools need (kubernetes_test.py says which).
# Usage: kubernetes_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/common.sh"
require_program python3 python3
python3 -c 'import yaml' 2>/dev/null || { echo "python3 yaml missing (python3-yaml)"; [[ "${CI:-}" == "true" ]] && exit 1; exit 77; }
exec python3 "$(dirname "$0")/kubernetes_test.py" "$@"
