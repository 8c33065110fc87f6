#!/usr/bin/env bash
# deploy.ci_examples: deploy/ci/github-actions.yml and gitlab-ci.yml parse, their snapshot-golden
# lines run as written on a copy of snapshots/ and write the JUnit report their publisher reads
# (ci_examples.py says what is checked; the "master:" steps and job need Mooncake and only get
# bash -n). Then each mutation below, applied to a copy of deploy/ci, must make the check fail.
# Skipped (77) without python3 and its yaml module (Debian python3-yaml, installed by
# scripts/setup.sh), a failure under CI=true.
# Usage: ci_examples_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 TOOLS_DIR SOURCE_DIR" >&2; exit 2; }
tools_dir="$1"; source_dir="$2"
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import yaml' 2>/dev/null; then
  echo "python3 with the yaml module not found (Debian packages python3 python3-yaml, installed by scripts/setup.sh)"
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
fi
check="$(dirname "$0")/ci_examples.py"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

python3 "$check" "$tools_dir" "$source_dir" || fail "the CI examples"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
# FILE~WHAT~PATTERN~REPLACEMENT: Python re.sub on the whole file, first match only.
mutations=(
  'github-actions.yml~publish only after a passing check~(- name: "golden: publish the JUnit report"\n)\s*if: .*\n~\1'
  'github-actions.yml~report written elsewhere~--junit golden.xml~--junit report.xml'
  'github-actions.yml~a master step not marked~name: "master: build mooncake_master"~name: "build mooncake_master"'
  'github-actions.yml~a wrong snapshot-golden flag~--junit golden.xml --format github~--junit golden.xml --format gh'
  'github-actions.yml~an unknown cmake option~-DMOONQUOTA_BUILD_BENCH=OFF~-DMOONQUOTA_BENCH=OFF'
  'github-actions.yml~a shell syntax error in a master step~(for _ in \$\(seq 120\); do)~\1 (('
  'gitlab-ci.yml~junit report is another file~junit: golden.xml~junit: report.xml'
  'gitlab-ci.yml~report dropped after a failed check~when: always(\n\s*paths:\n\s*- golden.xml)~when: on_success\1'
  'gitlab-ci.yml~a check that cannot fail~(- snapshot-golden check fixtures/ --junit golden.xml)~\1 || true'
  'gitlab-ci.yml~needs a missing job~- job: master:tables~- job: master:table'
)
for m in "${mutations[@]}"; do
  IFS='~' read -r file what pattern replacement <<<"$m"
  rm -rf "$work/ci"; cp -r "$source_dir/deploy/ci" "$work/ci"
  python3 -c '
import re, sys
path, pattern, replacement = sys.argv[1:4]
text = open(path).read()
open(path, "w").write(re.sub(pattern, replacement, text, count=1))
' "$work/ci/$file" "$pattern" "$replacement" || { fail "mutation '$what' could not be applied"; continue; }
  if cmp -s "$source_dir/deploy/ci/$file" "$work/ci/$file"; then fail "mutation '$what' of $file changed nothing"; continue; fi
  if python3 "$check" "$tools_dir" "$source_dir" "$work/ci" >"$work/out" 2>&1; then
    fail "mutation '$what' of $file passes the check"
  else
    echo "caught: $file: $what ($(grep -m1 FAIL "$work/out"))"
  fi
done
if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "ok"
