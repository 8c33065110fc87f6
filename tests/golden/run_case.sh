#!/usr/bin/env bash
# Runs one golden case: tests/golden/cases/<name>/{args, expected_stdout, expected_exit_code}.
# `args` is one line of arguments; the first word is the tool name. Paths in it are relative to
# the source tree, where the tool runs. stdout and the exit code must match exactly.
# UPDATE_GOLDEN=1 rewrites the expectations instead of comparing.
# Usage: run_case.sh TOOLS_DIR SOURCE_DIR CASE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"; case_dir="$3"
read -r -a argv < "$case_dir/args"
tool="${argv[0]}"
actual_out="$(mktemp)"; actual_err="$(mktemp)"
trap 'rm -f "$actual_out" "$actual_err"' EXIT
(cd "$source_dir" && "$tools_dir/$tool" "${argv[@]:1}" >"$actual_out" 2>"$actual_err")
rc=$?
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
