#!/usr/bin/env bash
# deploy.kubernetes: every manifest of deploy/kubernetes parses and has the fields Kubernetes and
# the tools need (kubernetes_test.py says which); then each mutation below, applied to a copy, must
# make the check fail (so it is not a check that passes anything).
# Usage: kubernetes_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/common.sh"
tools_dir="$1"; source_dir="$2"
require_program python3 python3
if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "python3 cannot import yaml (Debian package python3-yaml, installed by scripts/setup.sh)"
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
fi
check="$(dirname "$0")/kubernetes_test.py"
python3 "$check" "$tools_dir" "$source_dir" || fail "the manifests"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mutations=(
  "reconcile-deployment.yaml|0,/path: \/healthz/s//path: \/health/"
  "reconcile-deployment.yaml|s/- 0\.0\.0\.0:9464/- 0.0.0.0:9465/"
  "reconcile-deployment.yaml|s/claimName: .*/claimName: nowhere/"
  "reconcile-service.yaml|s/targetPort: metrics/targetPort: metric/"
  "rebuild-cronjob.yaml|s|schedule: \"\*/15 \* \* \* \*\"|schedule: \"*/15 * * *\"|"
  "rebuild-cronjob.yaml|s/- --format$/- --formatt/"
  "rebuild-cronjob.yaml|s/\\\$(MOONQUOTA_STORE)/\$(MOONQUOTA_STOR)/"
  "configmap.yaml|0,/quota: [0-9]*/s//quota: -1/"
)
for m in "${mutations[@]}"; do
  file="${m%%|*}"; script="${m#*|}"
  rm -rf "$work/k8s"; cp -r "$source_dir/deploy/kubernetes" "$work/k8s"
  sed -i -e "$script" "$work/k8s/$file"
  if cmp -s "$source_dir/deploy/kubernetes/$file" "$work/k8s/$file"; then
    fail "mutation '$script' of $file changed nothing"; continue
  fi
  if python3 "$check" "$tools_dir" "$source_dir" "$work/k8s" >"$work/out" 2>&1; then
    fail "mutation '$script' of $file passes the check"
  else
    echo "caught: $file: $script ($(grep -m1 FAIL "$work/out"))"
  fi
done
finish
