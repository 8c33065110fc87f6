#!/usr/bin/env bash
# cmake/BuildInfo.cmake, the header behind --version: `git describe` of a git checkout, "unknown"
# outside one (a source tarball, or a tree inside another repository), and the file is rewritten
# only when its text changes (so an unchanged build recompiles nothing).
# Usage: build_info_test.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
source_dir="$1"; build="$2"
source "$(dirname "$0")/common.sh"
require_programs cmake git
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
script="$source_dir/cmake/BuildInfo.cmake"
run() { cmake -DSOURCE_DIR="$1" -DOUTPUT="$2" -DVERSION=9.8.7 -P "$script"; }

# Not a checkout: unknown.
mkdir "$work/tarball"
run "$work/tarball" "$work/a.hpp" || fail "BuildInfo.cmake failed outside a checkout"
grep -qx '#define MOONQUOTA_GIT_DESCRIBE "unknown"' "$work/a.hpp" || fail "outside a checkout: $(cat "$work/a.hpp")"
grep -qx '#define MOONQUOTA_VERSION "9.8.7"' "$work/a.hpp" || fail "the version: $(cat "$work/a.hpp")"
# A folder inside another checkout is not that checkout: unknown.
git -C "$work" init -q repo && git -C "$work/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
mkdir "$work/repo/unpacked"
run "$work/repo/unpacked" "$work/b.hpp" && grep -q '"unknown"' "$work/b.hpp" || fail "inside another checkout: $(cat "$work/b.hpp")"
# The checkout itself: its git describe.
run "$work/repo" "$work/c.hpp" && grep -qx "#define MOONQUOTA_GIT_DESCRIBE \"$(git -C "$work/repo" describe --tags --always --abbrev=7)\"" "$work/c.hpp" ||
  fail "a checkout: $(cat "$work/c.hpp")"
git -C "$work/repo" tag v1.2.3
run "$work/repo" "$work/c.hpp" && grep -qx '#define MOONQUOTA_GIT_DESCRIBE "v1.2.3"' "$work/c.hpp" || fail "a tag: $(cat "$work/c.hpp")"
# Unchanged text: the file is not rewritten (same inode and time stamp).
touch -d '2000-01-01' "$work/c.hpp"
before="$(stat -c '%i %Y' "$work/c.hpp")"
run "$work/repo" "$work/c.hpp"
[[ "$(stat -c '%i %Y' "$work/c.hpp")" == "$before" ]] || fail "an unchanged header was rewritten"
git -C "$work/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m y
run "$work/repo" "$work/c.hpp"
grep -q '"v1.2.3-1-g' "$work/c.hpp" || fail "a new commit did not change the header: $(cat "$work/c.hpp")"

# The build's own header and the tools' --version agree with this checkout.
header="$build/tools/generated/moonquota_build_info.hpp"
describe="$(sed -n 's/^#define MOONQUOTA_GIT_DESCRIBE "\(.*\)"$/\1/p' "$header")"
[[ -n "$describe" ]] || fail "no git describe in $header"
if [[ "$(git -C "$source_dir" rev-parse --show-toplevel 2>/dev/null)" == "$(cd "$source_dir" && pwd -P)" ]]; then
  [[ "$describe" == "$(git -C "$source_dir" describe --tags --always --abbrev=7)" ]] ||
    echo "note: the build's header says $describe, HEAD is now $(git -C "$source_dir" describe --tags --always --abbrev=7) (rebuild to update)"
fi
for tool in "${tools[@]}"; do
  line="$("$build/tools/$tool" --version)"
  [[ "$line" == "$tool "*" (git $describe, reads Mooncake formats of 3b5a5941)" ]] || fail "$tool --version: $line"
done
finish
