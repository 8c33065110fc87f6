#!/usr/bin/env bash
# The docs are self-contained: no Markdown file of the repository names a path outside it.
#
# Checked in every tracked *.md file (git ls-files; every *.md under the root outside .git and
# build*/ when the root is not a git work tree):
#   1. no text (code blocks included) matching an outside path: /work/, /root/, /home/, shared/spec,
#      ../shared, or the name of a format/contract spec that lives outside the repository
#      (snapshot-format.md, oplog-format.md, quota-semantics.md, cli-contract.md,
#      live-master-api.md): a doc states the fact itself, cites our own docs, or cites upstream
#      Mooncake by file at commit 3b5a5941. Example output paths under /tmp/ are allowed.
#   2. every Markdown link outside fenced code blocks, inline `[text](target)` or reference-style
#      `[label]: target`, that is not a URL (scheme:) or a bare #anchor: the target is relative,
#      resolves inside the repository root, and exists; when it carries a #anchor and points to a
#      Markdown file, that file has a heading whose GitHub-style slug is the anchor (a bare
#      #anchor is checked against the file itself).
# Then a self-check on a temporary copy of the tracked files: the copy passes, and each planted
# fault (an outside path in prose, a link leaving the root, a link to a missing file, a missing
# anchor) makes it fail. So this test can fail.
# Usage: no_outside_paths_test.sh SOURCE_DIR
set -uo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 SOURCE_DIR" >&2; exit 2; }
source_dir="$(cd "$1" && pwd)"

outside_pattern='/work/|/root/|/home/|shared/spec|\.\./shared|(snapshot-format|oplog-format|quota-semantics|cli-contract|live-master-api)\.md'

# The Markdown files under ROOT, relative to it, one a line.
markdown_files() {
  local root="$1"
  if [[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" == "$root" ]]; then
    git -C "$root" ls-files -- '*.md'
  else
    (cd "$root" && find . \( -name .git -o -name 'build*' -o -name node_modules \) -prune -o \
       -type f -name '*.md' -print | sed 's|^\./||' | sort)
  fi
}

# FILE with the lines of fenced code blocks blanked (line numbers kept).
without_code_blocks() {
  awk '/^[[:space:]]*(```|~~~)/ { fence = !fence; print ""; next } { print fence ? "" : $0 }' "$1"
}

# The GitHub-style anchors of the headings of FILE (outside code blocks), one a line.
anchors_of() {
  without_code_blocks "$1" | sed -n 's/^#\{1,6\}[[:space:]]\{1,\}//p' |
    sed -e 's/[[:space:]]*#*[[:space:]]*$//' | tr '[:upper:]' '[:lower:]' |
    sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}

# Checks every Markdown file under ROOT, or only FILE (relative to ROOT) when given; prints one
# line per fault; exit 1 when there is one.
check_tree() {
  local root="$1" only="${2:-}" faults=0 file dir line target path anchor resolved
  while IFS= read -r file; do
    [[ -n "$only" && "$file" != "$only" ]] && continue
    # 1. outside paths anywhere in the text
    while IFS=: read -r line text; do
      echo "$file:$line: names a path outside the repository: ${text:0:140}"; faults=$((faults + 1))
    done < <(grep -nE "$outside_pattern" "$root/$file")
    # 2. links
    dir="$(dirname "$file")"
    while IFS=: read -r line target; do
      target="${target#<}"; target="${target%>}"
      [[ -z "$target" || "$target" =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] && continue
      path="${target%%#*}"; anchor=""
      [[ "$target" == *#* ]] && anchor="${target#*#}"
      if [[ -z "$path" ]]; then
        resolved="$root/$file"
      elif [[ "$path" == /* ]]; then
        echo "$file:$line: link to an absolute path: $target"; faults=$((faults + 1)); continue
      else
        resolved="$(realpath -m "$root/$dir/$path")"
        if [[ "$resolved" != "$root" && "$resolved" != "$root"/* ]]; then
          echo "$file:$line: link leaves the repository: $target"; faults=$((faults + 1)); continue
        fi
        if [[ ! -e "$resolved" ]]; then
          echo "$file:$line: link to a missing file: $target"; faults=$((faults + 1)); continue
        fi
      fi
      if [[ -n "$anchor" && "$resolved" == *.md && -f "$resolved" ]] &&
         ! anchors_of "$resolved" | grep -qxF -- "$anchor"; then
        echo "$file:$line: link to a missing heading: $target"; faults=$((faults + 1))
      fi
    done < <(without_code_blocks "$root/$file" |
               grep -noP '\]\(\K[^)[:space:]]+|^[[:space:]]*\[[^]]+\]:[[:space:]]*\K[^[:space:]]+')
  done < <(markdown_files "$root")
  ((faults == 0))
}

status=0
if check_tree "$source_dir"; then
  echo "PASS every Markdown file stays inside the repository, every relative link resolves"
else
  echo "FAIL the Markdown files above name paths outside the repository or broken links"
  status=1
fi

# --- self-check: the check fails on planted faults ---
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
if [[ "$(git -C "$source_dir" rev-parse --show-toplevel 2>/dev/null)" == "$source_dir" ]]; then
  git -C "$source_dir" ls-files -z | (cd "$source_dir" && xargs -0 cp --parents -t "$copy" 2>/dev/null)
else
  cp -r "$source_dir"/. "$copy"
fi
copy="$(cd "$copy" && pwd)"
# Self-check faults are planted into the copy only when the source itself passes (else the clean
# copy fails too and there is nothing to compare).
if ((status == 0)); then
  check_tree "$copy" >/dev/null || { echo "FAIL self-check: the clean copy does not pass"; status=1; }
  plant() {  # plant NAME TEXT: append TEXT to README.md of the copy, expect a failure, undo
    local saved; saved="$(cat "$copy/README.md")"
    printf '\n%s\n' "$2" >>"$copy/README.md"
    # Only README.md changed: checking it alone decides (the whole tree passed just above).
    if check_tree "$copy" README.md >/dev/null; then
      echo "FAIL self-check: a planted $1 passes: $2"; status=1
    else
      echo "PASS self-check: a planted $1 fails"
    fi
    printf '%s\n' "$saved" >"$copy/README.md"
  }
  plant "outside path" 'See /home/alice/notes/format.txt for the format.'
  plant "outside spec name" 'The rule is in snapshot-format.md, section 5.'
  plant "sibling-folder path" 'The genuine stores came from ../shared/genuine.'
  plant "link leaving the root" 'See [the spec](../../spec/snapshot-format.txt).'
  plant "absolute link" 'See [bench](/srv/bench/notes.txt).'
  plant "link to a missing file" 'See [gone](docs/no-such-page.md).'
  plant "link to a missing heading" 'See [ops](docs/operations.md#no-such-heading).'
  plant "reference link to a missing file" '[gone]: docs/no-such-page.md'
fi
exit "$status"
