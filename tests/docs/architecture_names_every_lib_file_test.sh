#!/usr/bin/env bash
# docs/ARCHITECTURE.md names every source file of lib/, and names no lib/ file that does not exist.
#
# The rule (simple on purpose): a file lib/DIR/NAME.EXT (EXT hpp or cpp, any depth; CMakeLists.txt
# is not a source file) is named when ARCHITECTURE.md contains its path relative to lib/ in one of
# these forms, optionally prefixed by `lib/`, and not preceded by a letter, digit, `_`, `.`, `-` or
# another path component:
#     DIR/NAME.EXT             e.g. report/rebuild/drops_report.cpp
#     DIR/NAME.{hpp,cpp}       e.g. util/atomic_file.{hpp,cpp}  (also written {cpp,hpp})
# so the doc names report/escape.{hpp,cpp}, never just escape.hpp under a heading: one grep per
# file decides, whatever the sections look like. The other way round, every such path in the doc
# whose first folder is a folder of lib/ must exist (a renamed or deleted file is caught).
# The lib/ files are the tracked ones (git ls-files), or all under lib/ when the root is not a git
# work tree. Then a self-check on a temporary copy: the copy passes, a planted unnamed file under
# lib/ fails, a planted name of a missing file fails. So this test can fail.
# Usage: architecture_names_every_lib_file_test.sh SOURCE_DIR
set -uo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 SOURCE_DIR" >&2; exit 2; }
source_dir="$(cd "$1" && pwd)"

# The .hpp/.cpp files under ROOT/lib, relative to ROOT/lib, one a line.
lib_files() {
  local root="$1"
  if [[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" == "$root" ]]; then
    git -C "$root" ls-files -- 'lib/*.hpp' 'lib/*.cpp' | sed 's|^lib/||'
  else
    (cd "$root/lib" && find . -type f \( -name '*.hpp' -o -name '*.cpp' \) | sed 's|^\./||' | sort)
  fi
}

# Every path the doc names in the forms above, relative to lib/, one a line, sorted: one pass over
# the doc (a grep per lib file took ~40 s of CI).
named_paths() {
  grep -oP "(?<![A-Za-z0-9_./-])[A-Za-z0-9_/]+\.(hpp\b|cpp\b|\{hpp,cpp\}|\{cpp,hpp\})" "$1" |
    sed -E 's|^lib/||; s/^(.*)\.\{(hpp,cpp|cpp,hpp)\}$/\1.hpp\n\1.cpp/' |
    LC_ALL=C sort -u
}

check_tree() {
  local root="$1" doc="$1/docs/ARCHITECTURE.md" faults=0 file stem folders name
  [[ -f "$doc" ]] || { echo "no docs/ARCHITECTURE.md"; return 1; }
  while IFS= read -r file; do
    echo "docs/ARCHITECTURE.md does not name lib/$file"; faults=$((faults + 1))
  done < <(LC_ALL=C comm -23 <(lib_files "$root" | LC_ALL=C sort -u) <(named_paths "$doc"))
  # Names in the doc that look like lib/ files (first folder is one of lib/'s) must exist.
  folders="$(cd "$root/lib" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | paste -sd'|')"
  while IFS= read -r name; do
    name="${name#lib/}"
    case "$name" in
      *'.{hpp,cpp}'|*'.{cpp,hpp}') stem="${name%.*}"
        [[ -f "$root/lib/$stem.hpp" && -f "$root/lib/$stem.cpp" ]] ||
          { echo "docs/ARCHITECTURE.md names lib/$name, but lib/$stem.hpp and .cpp do not both exist"; faults=$((faults + 1)); } ;;
      *) [[ -f "$root/lib/$name" ]] ||
          { echo "docs/ARCHITECTURE.md names lib/$name, which does not exist"; faults=$((faults + 1)); } ;;
    esac
  done < <(grep -oP "(?<![A-Za-z0-9_./-])(lib/)?($folders)/[A-Za-z0-9_/]+\.(hpp|cpp|\{hpp,cpp\}|\{cpp,hpp\})" "$doc" | sort -u)
  ((faults == 0))
}

status=0
if check_tree "$source_dir"; then
  echo "PASS docs/ARCHITECTURE.md names every file of lib/ ($(lib_files "$source_dir" | wc -l) files), and only existing ones"
else
  echo "FAIL docs/ARCHITECTURE.md and lib/ disagree (above)"
  status=1
fi

# --- self-check: the check fails on a planted fault ---
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/docs"
cp "$source_dir/docs/ARCHITECTURE.md" "$copy/docs/"
while IFS= read -r file; do
  mkdir -p "$copy/lib/$(dirname "$file")" && : >"$copy/lib/$file"
done < <(lib_files "$source_dir")
if ((status == 0)); then
  check_tree "$copy" >/dev/null || { echo "FAIL self-check: the clean copy does not pass"; status=1; }
  : >"$copy/lib/util/planted_unnamed_file.hpp"
  if check_tree "$copy" >/dev/null; then
    echo "FAIL self-check: a planted unnamed lib/util/planted_unnamed_file.hpp passes"; status=1
  else
    echo "PASS self-check: a planted unnamed lib/util/planted_unnamed_file.hpp fails"
  fi
  rm "$copy/lib/util/planted_unnamed_file.hpp"
  printf '\n- `util/no_such_file.{hpp,cpp}`: a file that does not exist.\n' >>"$copy/docs/ARCHITECTURE.md"
  if check_tree "$copy" >/dev/null; then
    echo "FAIL self-check: a planted name of a missing file passes"; status=1
  else
    echo "PASS self-check: a planted name of a missing file fails"
  fi
fi
exit "$status"
