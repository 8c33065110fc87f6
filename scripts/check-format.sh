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

# Batches of files, one clang-format per batch and per core (one process per file took ~1 min of
# CI). A violation is reported as "FILE:LINE:COL: error: code should be clang-formatted
# [-Wclang-format-violations]"; a failure without any (a missing file, a bad .clang-format) is an error.
status=0
out="$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 64 -P "$(nproc)" "$clang_format" --style=file --dry-run --Werror 2>&1)" || status=$?
mapfile -t bad < <(sed -nE 's/^(.+):[0-9]+:[0-9]+: (error|warning): code should be clang-formatted \[-Wclang-format-violations\]$/\1/p' <<<"$out" | LC_ALL=C sort -u)
if ((status != 0 && ${#bad[@]} == 0)); then
  echo "check-format: clang-format failed: $out" >&2
  exit 2
fi

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
