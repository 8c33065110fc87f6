#!/usr/bin/env bash
# golden_tool.junit_reader: snapshot-golden's --junit report, read back by a real JUnit consumer
# (junit2json under Node, pinned in scripts/junit-reader and installed there by scripts/setup.sh),
# agrees with the same run's --format json report and with the verdicts planted here.
#   Set golden-a, a copy of snapshots/ where:  sample: a charged_bytes of expected.json + 1
#     (accounts-drift); genuine/s1_single_segment_basic: master.json (a symlink to restored.json)
#     replaced by a file with a charged + 1 (master-disagrees); survival: fingerprint.json deleted
#     (unreadable); quota-worked-example: a feature added to fingerprint.json (format-drift: a
#     warning, a failure with --strict); the 8 others pass.
#   Set golden-b, three fixtures copied from snapshots/: spec-worked-example with an edited
#     expected.json (accounts-drift), promote-worked with expected.json not JSON (unreadable),
#     genuine/s7_spec_worked_example untouched (pass).
#   Set lone, one fixture folder given as the set (live-audit: pass).
# `snapshot-golden check --junit --format json` must exit 1; junit_check.mjs compares, per
# suite and in total, the tests, failures and errors (attributes and elements) with the JSON
# counts, the testcases' names with the fixtures', and <failure>/<error>/<system-out> with each
# verdict. Again with --strict. Then faults planted into a copy of the XML must each be caught.
# Skipped (77) when node or junit2json is not installed, a failure under CI=true.
# Usage: junit_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 TOOLS_DIR SOURCE_DIR" >&2; exit 2; }
tools_dir="$1"; source_dir="$(cd "$2" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
reader_dir="$source_dir/scripts/junit-reader"
check="$here/junit_check.mjs"

skip() {
  echo "$1"
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node not found (Debian package nodejs, installed by scripts/setup.sh)"
[[ -f "$reader_dir/node_modules/junit2json/package.json" ]] ||
  skip "junit2json not installed in scripts/junit-reader/node_modules (scripts/setup.sh installs it)"
command -v python3 >/dev/null 2>&1 || skip "python3 not found (Debian package python3, installed by scripts/setup.sh)"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# edit_json FILE PYTHON: runs PYTHON on the parsed FILE (bound to d) and writes it back; a regular
# file replaces a symlink.
edit_json() {
  python3 - "$1" "$2" <<'EOF' || { echo "cannot edit $1"; exit 1; }
import json, os, sys
path, code = sys.argv[1], sys.argv[2]
with open(path) as f:
    d = json.load(f)
exec(code)
if os.path.islink(path):
    os.unlink(path)
with open(path, "w") as f:
    json.dump(d, f, indent=2)
    f.write("\n")
EOF
}

a="$work/golden-a"; b="$work/golden-b"; lone="$work/lone"
cp -r "$source_dir/snapshots" "$a"
edit_json "$a/sample/expected.json" 'd["tenants"][0]["charged_bytes"] += 1'
[[ -L "$a/genuine/s1_single_segment_basic/master.json" ]] || fail "genuine/s1 master.json is no longer a symlink"
edit_json "$a/genuine/s1_single_segment_basic/master.json" 'd[0]["charged"] += 1'
[[ -L "$a/genuine/s1_single_segment_basic/master.json" ]] && fail "the edited master.json is still a symlink"
cmp -s "$a/genuine/s1_single_segment_basic/master.json" "$a/genuine/s1_single_segment_basic/restored.json" &&
  fail "the edited master.json equals restored.json"
rm "$a/survival/fingerprint.json"
edit_json "$a/quota-worked-example/fingerprint.json" \
  'd["sections"]["files"].append({"feature": "planted-by-junit-test", "count": 1, "first_seen": "planted", "unknown": False})'
mkdir -p "$b/genuine"
cp -r "$source_dir/snapshots/spec-worked-example" "$source_dir/snapshots/promote-worked" "$b/"
cp -r "$source_dir/snapshots/genuine/s7_spec_worked_example" "$b/genuine/"
edit_json "$b/spec-worked-example/expected.json" 'd["tenants"][-1]["charged_bytes"] += 4096'
echo '{"schema": "quota-rebuild/1", "tenants": [' >"$b/promote-worked/expected.json"
cp -r "$source_dir/snapshots/live-audit" "$lone"

planted=(
  golden-a/sample=accounts-drift
  golden-a/genuine/s1_single_segment_basic=master-disagrees
  golden-a/survival=unreadable
  golden-a/quota-worked-example=format-drift
  golden-b/spec-worked-example=accounts-drift
  golden-b/promote-worked=unreadable
)

# run_check NAME [--strict]: snapshot-golden check over the three sets into NAME.xml and NAME.json
# (exit 1 expected), then the JUnit reader over them.
run_check() {
  local name="$1"; shift
  "$tools_dir/snapshot-golden" check "$@" --junit "$work/$name.xml" --format json --output "$work/$name.json" \
    "$a" "$b" "$lone" 2>"$work/$name.err"
  local rc=$?
  [[ $rc -eq 1 ]] || fail "check $*: exit $rc, expected 1 (stderr: $(head -c 300 "$work/$name.err"))"
  [[ -s "$work/$name.xml" ]] || { fail "check $*: no JUnit report written"; return; }
  [[ -s "$work/$name.json" ]] || { fail "check $*: no JSON report written"; return; }
  if node "$check" "$reader_dir" "$work/$name.xml" "$work/$name.json" "${planted[@]}" >"$work/$name.out" 2>&1; then
    echo "check${*:+ $*}: $(tail -n 1 "$work/$name.out")"
  else
    fail "check $*: the JUnit report read back disagrees:"; sed 's/^/    /' "$work/$name.out"
  fi
}
run_check plain
run_check strict --strict

# The checker is not one that passes anything: each fault planted into a copy of the XML (or a
# wrong planted verdict) must make it fail.
if [[ -s "$work/plain.xml" && -s "$work/plain.json" ]]; then
  # WHAT|PATTERN|REPLACEMENT: Python re.sub on the whole XML (DOTALL), first match only.
  mutations=(
    'drop a <failure>|<failure .*?</failure>\n|'
    'drop an <error>|<error .*?</error>\n|'
    'rename a failing testcase|name="sample"|name="sample2"'
    "a suite's tests attribute|<testsuite name=\"golden-b\" tests=\"3\"|<testsuite name=\"golden-b\" tests=\"4\""
    'the total errors attribute|(<testsuites [^>]*) errors="2"|\1 errors="1"'
    'an error turned into a failure|<error (.*?)</error>|<failure \1</failure>'
    'a passing testcase dropped|<testcase [^>]*name="survival-promote"[^>]*/>\n|'
    'a failing testcase turned passing|(<testcase classname="golden-b" name="promote-worked"[^>/]*)>.*?</testcase>|\1/>'
    'two fixtures swapped|name="live-audit"(.*?)name="promote-worked"|name="promote-worked"\1name="live-audit"'
  )
  for m in "${mutations[@]}"; do
    IFS='|' read -r what pattern replacement <<<"$m"
    python3 -c '
import re, sys
src, dst, pattern, replacement = sys.argv[1:5]
text = open(src).read()
open(dst, "w").write(re.sub(pattern, replacement, text, count=1, flags=re.S))
' "$work/plain.xml" "$work/mutated.xml" "$pattern" "$replacement" || { fail "mutation '$what' could not be applied"; continue; }
    if cmp -s "$work/plain.xml" "$work/mutated.xml"; then fail "mutation '$what' changed nothing"; continue; fi
    if node "$check" "$reader_dir" "$work/mutated.xml" "$work/plain.json" "${planted[@]}" >"$work/mut.out" 2>&1; then
      fail "mutation '$what' passes the check"
    else
      echo "caught: $what ($(grep -m1 -E 'FAIL|cannot' "$work/mut.out"))"
    fi
  done
  if node "$check" "$reader_dir" "$work/plain.xml" "$work/plain.json" "${planted[@]/golden-a\/sample=accounts-drift/golden-a/sample=pass}" \
      >"$work/mut.out" 2>&1; then
    fail "a wrong planted verdict passes the check"
  else
    echo "caught: a wrong planted verdict ($(grep -m1 FAIL "$work/mut.out"))"
  fi
fi

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "ok"
