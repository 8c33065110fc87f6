#!/usr/bin/env bash
# `cmake --install` (cmake/Install.cmake) into a temporary prefix: exactly the tools in bin/, one man
# page and two completion scripts per tool, the docs, copyright, changelog and deploy examples
# under share/doc/moonquota, the example stores under share/moonquota/snapshots, the systemd units
# in lib/systemd/system, nothing else (no test program, no library, no header); the installed
# tools run, the installed bash completion completes, and every --help example runs from
# share/moonquota.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build="$1"; source_dir="$2"
source "$(dirname "$0")/common.sh"
require_programs cmake
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
if ! cmake --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1; then
  cat "$prefix.log"; rm -f "$prefix.log"; echo "FAIL cmake --install"; exit 1
fi
rm -f "$prefix.log"

expected="$(
  for tool in "${tools[@]}"; do
    echo "bin/$tool"
    [[ -f "$build/man/$tool.1.gz" ]] && echo "share/man/man1/$tool.1.gz"
    echo "share/bash-completion/completions/$tool"
    echo "share/zsh/vendor-completions/_$tool"
  done
  echo share/doc/moonquota/README.md
  echo share/doc/moonquota/copyright
  echo share/doc/moonquota/changelog.gz
  (cd "$source_dir" && find docs -type f | sed 's|^|share/doc/moonquota/|')
  [[ -d "$source_dir/deploy" ]] && (cd "$source_dir/deploy" && find . -type f | sed 's|^\./|share/doc/moonquota/deploy/|')
  # Every snapshot-golden fixture of snapshots/ (master.json of the genuine stores is a symlink).
  for example in $(cd "$source_dir/snapshots" && find . -name args -type f -not -path '*/expected/*' -printf '%h\n' | sed 's|^\./||' | sort); do
    (cd "$source_dir" && find "snapshots/$example" \( -type f -o -type l \) -not -path '*/expected/*' |
      sed 's|^|share/moonquota/|')
  done
  for unit in moonquota-reconcile.service moonquota-rebuild-check.service moonquota-rebuild-check.timer; do
    echo "lib/systemd/system/$unit"
  done
)"
actual="$(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||')"
missing="$(comm -23 <(sort <<<"$expected") <(sort <<<"$actual"))"
extra="$(comm -13 <(sort <<<"$expected") <(sort <<<"$actual"))"
[[ -z "$missing" ]] || fail "not installed: $(tr '\n' ' ' <<<"$missing")"
[[ -z "$extra" ]] || fail "installed but not expected: $(tr '\n' ' ' <<<"$extra")"
echo "$(wc -l <<<"$actual") files installed"
[[ "$(stat -c %a "$prefix/bin/quota-rebuild")" == 755 ]] || fail "bin/quota-rebuild mode $(stat -c %a "$prefix/bin/quota-rebuild")"
[[ "$(stat -c %a "$prefix/share/doc/moonquota/README.md")" == 644 ]] || fail "README.md mode"
for tool in "${tools[@]}"; do
  "$prefix/bin/$tool" --version >/dev/null || fail "installed $tool --version"
done
got="$(bash -c 'source "$1"; COMP_WORDS=(quota-rebuild --format ""); COMP_CWORD=2; _moonquota_quota_rebuild; echo "${COMPREPLY[*]}"' _ \
  "$prefix/share/bash-completion/completions/quota-rebuild")"
[[ "$got" == "text json prom" ]] || fail "installed bash completion of quota-rebuild --format: [$got]"
# The examples of --help against the installed stores (serve and the two-command history example
# are run by tests/docs/help_examples_test.sh from the source tree).
for tool in quota-rebuild snapshot-inspect oplog-inspect snapshot-golden; do
  example="$("$prefix/bin/$tool" --help | awk '/^Example:/ {getline; sub(/^  /, ""); print; exit}')"
  (cd "$prefix/share/moonquota" && PATH="$prefix/bin:$PATH" bash -c "$example" >/dev/null 2>&1) ||
    fail "the --help example of $tool does not run from the installed share/moonquota: $example"
done
# The installed fixtures are a fixture set that passes (docs/golden.md).
(cd "$prefix/share/moonquota" && "$prefix/bin/snapshot-golden" check snapshots >"$prefix/golden.txt" 2>&1) ||
  fail "snapshot-golden check snapshots fails from the installed share/moonquota: $(tail -3 "$prefix/golden.txt")"
finish
