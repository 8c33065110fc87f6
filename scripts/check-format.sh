#!/usr/bin/env bash
# Checks that every tracked *.cpp / *.hpp file is formatted by clang-format 14 (Debian 12's
# package `clang-format`) with the repository's .clang-format. Lists the files that are not and
# exits 1; exits 0 when all are. Golden data is never C++ and is not touched.
# Usage: scripts/check-format.sh [--fix] [FILE...]
#   --fix    rewrite the offending files in place instead of failing
#   FILE...  check only these files (default: `git ls-files '*.cpp' '*.hpp'`)
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [[ "${1:-}" == "--fix" ]]; then fix=1; shift; fi

clang_format="${CLANG_FORMAT:-clang-format}"
command -v "$clang_format" >/dev/null 2>&1 || { echo "check-format: $clang_format not found (apt-get install clang-format)" >&2; exit 2; }
version="$("$clang_format" --version)"
[[ "$version" =~ version\ 14\. ]] || echo "check-format: warning: expected clang-format 14, found: $version" >&2

if (($# > 0)); then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp')
fi

bad=()
for f in "${files[@]}"; do
  if ! out="$("$clang_format" --style=file --dry-run --Werror "$f" 2>&1)"; then
    # Anything but a formatting difference (a missing file, a bad .clang-format) is an error.
    [[ "$out" == *"[-Wclang-format-violations]"* ]] || { echo "check-format: $f: $out" >&2; exit 2; }
    bad+=("$f")
  fi
done

if ((${#bad[@]} == 0)); then
  echo "check-format: ${#files[@]} files formatted"
  exit 0
fi
if ((fix)); then
  "$clang_format" --style=file -i "${bad[@]}"
  printf 'check-format: reformatted %s\n' "${bad[@]}"
  exit 0
fi
printf '%s\n' "${bad[@]}"
echo "check-format: ${#bad[@]} of ${#files[@]} files not formatted; run scripts/check-format.sh --fix" >&2
exit 1
