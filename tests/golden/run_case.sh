#!/usr/bin/env bash
# Runs one golden case: tests/golden/cases/<name>/{args, expected_stdout, expected_exit_code}.
# `args` is one line of arguments; the first word is the tool name. Paths in it are relative to
# the source tree, where the tool runs. stdout and the exit code must match exactly.
# UPDATE_GOLDEN=1 rewrites the expectations instead of comparing.
# Optional, for quota-reconcile against a live master: `stand_in_args` starts the test-support
# master-stand-in with those arguments on a free loopback port, replaces @MASTER@ in `args` with its
# URL and stops it afterwards; `normalize.sed` is applied to stdout before the comparison (run-time
# values such as the port, the sample time and the metadata age).
# For the same cases against other sources (tests/s3/golden_from_s3.sh): GOLDEN_ARGS_SED, a sed
# script applied to `args` (local store paths -> s3:// URLs), and GOLDEN_OUTPUT_SED, applied to
# stdout and stderr before the comparison (the URLs back to the paths).
# Usage: run_case.sh TOOLS_DIR SOURCE_DIR CASE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"; case_dir="$3"
if [[ -n "${GOLDEN_ARGS_SED:-}" ]]; then
  read -r -a argv < <(sed -E -e "$GOLDEN_ARGS_SED" "$case_dir/args")
else
  read -r -a argv < "$case_dir/args"
fi
tool="${argv[0]}"
actual_out="$(mktemp)"; actual_err="$(mktemp)"; url_file="$(mktemp)"
stand_in_pid=""
cleanup() {
  if [[ -n "$stand_in_pid" ]]; then kill "$stand_in_pid" 2>/dev/null; wait "$stand_in_pid" 2>/dev/null; fi
  rm -f "$actual_out" "$actual_err" "$url_file"
}
trap cleanup EXIT
if [[ -f "$case_dir/stand_in_args" ]]; then
  read -r -a stand_in_argv < "$case_dir/stand_in_args"
  (cd "$source_dir" && exec "$tools_dir/master-stand-in" "${stand_in_argv[@]}" >"$url_file") &
  stand_in_pid=$!
  for _ in $(seq 1 200); do [[ -s "$url_file" ]] && break; sleep 0.05; done
  url="$(head -n 1 "$url_file")"
  [[ "$url" == http://127.0.0.1:* ]] || { echo "master-stand-in did not start"; exit 1; }
  argv=("${argv[@]//@MASTER@/$url}")
fi
(cd "$source_dir" && "$tools_dir/$tool" "${argv[@]:1}" >"$actual_out" 2>"$actual_err")
rc=$?
if [[ -n "${GOLDEN_OUTPUT_SED:-}" ]]; then
  sed -E -i -e "$GOLDEN_OUTPUT_SED" "$actual_out" "$actual_err"
fi
if [[ -f "$case_dir/normalize.sed" ]]; then
  sed -E -i -f "$case_dir/normalize.sed" "$actual_out"
fi
if [[ "${UPDATE_GOLDEN:-0}" == "1" ]]; then
  cp "$actual_out" "$case_dir/expected_stdout"
  echo "$rc" > "$case_dir/expected_exit_code"
  echo "updated $case_dir"
  exit 0
fi
status=0
expected_rc="$(cat "$case_dir/expected_exit_code")"
if [[ "$rc" != "$expected_rc" ]]; then
  echo "exit code $rc, expected $expected_rc"; echo "--- stderr:"; cat "$actual_err"; status=1
fi
if ! diff -u "$case_dir/expected_stdout" "$actual_out"; then
  echo "stdout differs from $case_dir/expected_stdout"; status=1
fi
if [[ -f "$case_dir/expected_stderr_contains" ]]; then
  while IFS= read -r needle; do
    [[ -z "$needle" ]] && continue
    grep -qF -- "$needle" "$actual_err" || { echo "stderr lacks: $needle"; echo "--- stderr:"; cat "$actual_err"; status=1; }
  done < "$case_dir/expected_stderr_contains"
fi
exit $status
