#!/usr/bin/env bash
# The layer check (scripts/check-layers.sh) passes on the real tree and fails, naming the file, on
# each wrong include planted into a copy of lib/, tools/ and bench/: a lower layer including a
# higher one, a third-party header outside its files (in lib/ and in tools/), a relative include,
# and a lib folder that is not in the table. The unchanged copy passes, so each failure is the
# plant's. Usage: check_layers_test.sh SOURCE_DIR
set -uo pipefail
source_dir="$(cd "$1" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out="$(bash "$source_dir/scripts/check-layers.sh" "$source_dir" 2>&1)"
rc=$?
[[ $rc -eq 0 ]] || fail "the real tree: exit $rc, expected 0:"$'\n'"$out"

base="$tmp/base"
mkdir -p "$base/scripts"
cp -r "$source_dir/lib" "$source_dir/tools" "$source_dir/bench" "$base/"
cp "$source_dir/scripts/check-layers.sh" "$base/scripts/"

out="$(bash "$base/scripts/check-layers.sh" "$base" 2>&1)"
rc=$?
[[ $rc -eq 0 ]] || fail "the unchanged copy: exit $rc, expected 0:"$'\n'"$out"

# plant NAME FILE LINE EXPECTED: a fresh copy with LINE appended to FILE (created if new); the check
# must exit 1 and print EXPECTED (the planted file and line, and the rule it breaks).
plant() {
  local name="$1" file="$2" line="$3" expected="$4" copy="$tmp/$1"
  cp -r "$base" "$copy"
  mkdir -p "$(dirname "$copy/$file")"
  printf '%s\n' "$line" >>"$copy/$file"
  local n
  n="$(wc -l <"$copy/$file")"
  expected="${expected//@LINE@/$n}"
  local out rc
  out="$(bash "$copy/scripts/check-layers.sh" "$copy" 2>&1)"
  rc=$?
  if [[ $rc -ne 1 ]]; then
    fail "$name: exit $rc, expected 1:"$'\n'"$out"
  elif [[ "$out" != *"$expected"* ]]; then
    fail "$name: the output does not name '$expected':"$'\n'"$out"
  else
    echo "ok: $name"
  fi
}

plant util-includes-report lib/util/uuid.cpp '#include "report/escape.hpp"' \
  'lib/util/uuid.cpp:@LINE@: util may not include "report/escape.hpp" (allowed: nothing but itself)'
plant report-subfolder-includes-forge lib/report/rebuild/drops_report.cpp '#include "forge/scenario.hpp"' \
  'lib/report/rebuild/drops_report.cpp:@LINE@: report may not include "forge/scenario.hpp"'
plant rocksdb-in-format lib/format/manifest.cpp '#include <rocksdb/db.h>' \
  'lib/format/manifest.cpp:@LINE@: format may not include <rocksdb/db.h> (rocksdb, allowed: lib/history/*)'
plant rocksdb-in-tools tools/tool_common.cpp '#include <rocksdb/db.h>' \
  'tools/tool_common.cpp:@LINE@: tools may not include <rocksdb/db.h>'
plant unknown-third-party lib/history/trend.cpp '#include <boost/optional.hpp>' \
  'lib/history/trend.cpp:@LINE@: history includes <boost/optional.hpp>, of no family'
plant relative-include lib/model/enums.cpp '#include "../util/status.hpp"' \
  'lib/model/enums.cpp:@LINE@: model may not include "../util/status.hpp"'
plant unplaced-folder lib/newfolder/x.cpp '#include "util/status.hpp"' \
  'lib/newfolder/x.cpp: its folder newfolder is not in the layer table'

# Without REPO_ROOT the script checks the repository it is in, wherever it is run from.
copy="$tmp/default-root"
cp -r "$base" "$copy"
printf '#include "report/escape.hpp"\n' >>"$copy/lib/util/uuid.cpp"
out="$(cd "$source_dir" && bash "$copy/scripts/check-layers.sh" 2>&1)"
rc=$?
[[ $rc -eq 1 && "$out" == *"lib/util/uuid.cpp:"* ]] || fail "default root: exit $rc, expected 1 naming lib/util/uuid.cpp:"$'\n'"$out"

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "check-layers: all cases pass"
