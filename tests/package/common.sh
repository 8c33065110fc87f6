# Sourced by the package tests (tests/package/*.sh): the tools they check, the failure counter,
# and how a missing program is a skip (77) on a developer machine but a failure under CI=true.

# The tools, from CMake's MOONQUOTA_TOOLS (tools/CMakeLists.txt; tests/CMakeLists.txt sets it in
# the tests' environment), so a new tool is checked without being listed here.
read -r -a tools <<<"${MOONQUOTA_TOOLS:-}"
if ((${#tools[@]} == 0)); then
  echo "MOONQUOTA_TOOLS is not set (run the test through ctest)"
  exit 1
fi

failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# require_programs PROGRAM...: exit 77 (CTest: skipped) when one is missing, 1 under CI=true.
require_programs() {
  local missing=()
  for program in "$@"; do command -v "$program" >/dev/null 2>&1 || missing+=("$program"); done
  if ((${#missing[@]})); then
    echo "missing: ${missing[*]} (scripts/setup.sh installs them)"
    [[ "${CI:-}" == "true" ]] && exit 1
    exit 77
  fi
}

finish() {
  if ((failures)); then echo "$failures failure(s)"; exit 1; fi
  echo "ok"
}
