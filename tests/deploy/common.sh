# Sourced by the deploy.* test scripts.
# require_program NAME PACKAGE: exits 77 (CTest: skipped) when NAME is not on PATH, or 1 under
# CI=true, where scripts/setup.sh installs PACKAGE.
require_program() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "$1 not found (Debian package $2, installed by scripts/setup.sh)"
    [[ "${CI:-}" == "true" ]] && exit 1
    exit 77
  fi
}

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
finish() {
  if ((failures)); then echo "$failures failure(s)"; exit 1; fi
  echo "ok"
}
