#!/usr/bin/env bash
# The Debian package (cmake/Install.cmake): cpack -G DEB from the build tree, lintian without an
# error (and without a warning not accepted in tests/package/lintian-accepted), its declared
# dependencies cover every shared library the tools link, and unpacked into a temporary root
# (dpkg-deb -x) every tool answers --version and the sample rebuild prints its golden table.
# Needs a built tree (cpack installs what is built, it does not build).
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build="$1"; source_dir="$2"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/common.sh"
require_programs cpack dpkg-deb dpkg-shlibdeps lintian objdump file
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS

# --- build the package ---
if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"; echo "FAIL cpack -G DEB"; exit 1
fi
debs=("$work"/out/moonquota_*.deb)
[[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || { ls -l "$work/out"; echo "FAIL expected one moonquota_*.deb"; exit 1; }
deb="${debs[0]}"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes) in $((SECONDS - start)) s"

# --- control fields ---
field() { dpkg-deb -f "$deb" "$1"; }
[[ "$(field Package)" == "moonquota" ]] || fail "Package: $(field Package)"
version="$(field Version)"
tool_version="$("$build/tools/quota-rebuild" --version | awk '{print $2}')"
[[ "$version" == "$tool_version" ]] || fail "Version $version, the tools say $tool_version"
changelog_version="$(sed -n '1s/^moonquota (\([^)]*\)).*/\1/p' "$source_dir/packaging/debian/changelog")"
[[ "$changelog_version" == "$version" ]] ||
  fail "packaging/debian/changelog's newest entry is $changelog_version, the package $version: add an entry"
for name in Maintainer Section Priority Description Depends; do
  [[ -n "$(field "$name")" ]] || fail "no $name field"
done
depends="$(field Depends)"
echo "Depends: $depends"
# Every library a tool links directly (NEEDED) is provided by a package in Depends.
declare -A needed_packages=()
for tool in "${tools[@]}"; do
  bin="$build/tools/$tool"
  while read -r soname; do
    path="$(ldd "$bin" | awk -v s="$soname" '$1 == s {print $3}')"
    [[ -n "$path" ]] || { fail "$tool: $soname not found by ldd"; continue; }
    owner="$(dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null)"
    owner="${owner%%:*}"
    [[ -n "$owner" ]] || { fail "$tool: no package owns $path"; continue; }
    needed_packages["$owner"]=1
  done < <(objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}')
done
# The package names in Depends (alternatives included, versions dropped).
declared="$(tr ',|' '\n\n' <<<"$depends" | sed -e 's/(.*)//' -e 's/[[:space:]]//g' | sed '/^$/d')"
for package in "${!needed_packages[@]}"; do
  # The owner of the library, or a virtual package it provides (libspdlog1.10 provides libspdlog1.10-fmt9).
  names="$(printf '%s\n' "$package"; dpkg-query -W -f='${Provides}\n' "$package" 2>/dev/null | tr ',' '\n' |
    sed -e 's/(.*)//' -e 's/[[:space:]]//g' | sed '/^$/d')"
  grep -qxFf <(printf '%s\n' "$names") <<<"$declared" ||
    fail "Depends lacks $package (a tool links its library; names: $(tr '\n' ' ' <<<"$names"))"
done
echo "${#needed_packages[@]} packages provide the linked libraries, all in Depends"

# --- lintian ---
# -I: the hardening tags (hardening-no-bindnow, hardening-no-fortify-functions, ...) are info tags.
lintian -I --tag-display-limit 0 "$deb" >"$work/lintian.log" 2>&1
lintian_rc=$?
cat "$work/lintian.log"
grep -q '^E: ' "$work/lintian.log" && fail "lintian reports errors"
((lintian_rc == 0)) || fail "lintian exit code $lintian_rc"
if grep -E '^[EWI]: .* hardening-' "$work/lintian.log"; then
  fail "lintian reports a binary built without hardening (cmake/Settings.cmake MOONQUOTA_HARDEN)"
fi
accepted="$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/lintian-accepted" | awk '{print $1}')"
while read -r tag; do
  grep -qx "$tag" <<<"$accepted" || fail "lintian warning $tag is not accepted in tests/package/lintian-accepted"
done < <(awk '$1 == "W:" {print $3}' "$work/lintian.log" | sort -u)

# --- unpack and run from the temporary root ---
root="$work/root"
dpkg-deb -x "$deb" "$root"
[[ "$(ls "$root/usr/bin" | sort | tr '\n' ' ')" == "$(printf '%s\n' "${tools[@]}" | sort | tr '\n' ' ')" ]] ||
  fail "usr/bin holds [$(ls "$root/usr/bin" | tr '\n' ' ')], expected the tools only: ${tools[*]}"
for tool in "${tools[@]}"; do
  line="$("$root/usr/bin/$tool" --version)" || fail "$tool --version from the package: exit $?"
  [[ "$line" == "$("$build/tools/$tool" --version)" ]] || fail "$tool --version from the package: $line"
  echo "$line"
  for file in "usr/share/man/man1/$tool.1.gz" "usr/share/bash-completion/completions/$tool" \
              "usr/share/zsh/vendor-completions/_$tool"; do
    [[ -s "$root/$file" ]] || fail "the package has no $file"
  done
done
for file in README.md copyright changelog.gz docs/cli/README.md docs/operations.md deploy/README.md; do
  [[ -s "$root/usr/share/doc/moonquota/$file" ]] || fail "the package has no usr/share/doc/moonquota/$file"
done
# The sample rebuild of README, as its golden case, with the packaged quota-rebuild.
if ! bash "$source_dir/tests/golden/run_case.sh" "$root/usr/bin" "$source_dir" \
       "$source_dir/snapshots/sample/expected/rebuild-text"; then
  fail "the sample rebuild from the package differs from snapshots/sample/expected/rebuild-text"
fi
echo "package.deb took $((SECONDS - start)) s"
finish
