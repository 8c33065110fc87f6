# Sourced by the bench script tests: check_usage_errors BUILD_DIR SCRIPT TMP checks that SCRIPT
# exits 2 on --objects 0, on a flag without its value and on an unknown argument, 3 without a build,
# on a --work-dir that cannot be a directory and on one holding a store-N it did not forge (kept),
# each with its message.
# Needs fail() from the sourcing test.
check_usage_errors() {
  local build="$1" script="$2" tmp="$3" rc
  rc=0; BUILD_DIR="$build" bash "$script" --objects 0 >/dev/null 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q "'0' is not a positive integer" "$tmp/err" || fail "--objects 0: exit $rc"
  rc=0; BUILD_DIR="$build" bash "$script" --objects >/dev/null 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q -- "--objects needs a value" "$tmp/err" || fail "--objects without a value: exit $rc"
  rc=0; BUILD_DIR="$build" bash "$script" --work-dir "$tmp/err" >/dev/null 2>"$tmp/err2" || rc=$?
  [[ $rc -eq 3 ]] && grep -q "not a writable directory" "$tmp/err2" || fail "--work-dir on a file: exit $rc"
  rm -f "$tmp/err2"
  mkdir -p "$tmp/mine/store-2000"; echo precious >"$tmp/mine/store-2000/notes"
  rc=0; BUILD_DIR="$build" bash "$script" --objects 2000 --work-dir "$tmp/mine" >/dev/null 2>"$tmp/err2" || rc=$?
  [[ $rc -eq 3 ]] && grep -q "was not forged by a bench script" "$tmp/err2" && [[ -f "$tmp/mine/store-2000/notes" ]] ||
    fail "a --work-dir holding a store-2000 of its own: exit $rc"
  rm -rf "$tmp/mine" "$tmp/err2"
  rc=0; BUILD_DIR="$build" bash "$script" --bogus >/dev/null 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q "unknown argument '--bogus'" "$tmp/err" || fail "--bogus: exit $rc"
  rc=0; BUILD_DIR="$tmp/nowhere" bash "$script" >/dev/null 2>"$tmp/err" || rc=$?
  [[ $rc -eq 3 ]] && grep -q "build first" "$tmp/err" || fail "no build: exit $rc"
}
