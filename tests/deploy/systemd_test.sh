#!/usr/bin/env bash
# deploy.systemd: the units of deploy/systemd pass `systemd-analyze verify` with no warning at all
# (it exits 0 on an unknown key or a bad value, so any output fails the test), with ExecStart
# pointed from /usr/bin (where the .deb installs the tools) at the build tree; and the flags their
# ExecStart gives the tools, with the example environment files' values, are flags the tools accept.
# Works without a running systemd (Debian 12: systemd-analyze from package systemd).
# Usage: systemd_test.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/common.sh"
tools_dir="$(cd "$1" && pwd)"; source_dir="$2"
require_program systemd-analyze systemd
require_program python3 python3
units_dir="$source_dir/deploy/systemd"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

units=()
for f in "$units_dir"/*.service "$units_dir"/*.timer; do
  sed -e "s#/usr/bin/#$tools_dir/#g" "$f" > "$work/$(basename "$f")"
  units+=("$work/$(basename "$f")")
done
((${#units[@]} >= 3)) || fail "expected the reconcile service and the rebuild-check service and timer"
out="$(systemd-analyze verify --man=no "${units[@]}" 2>&1)"; rc=$?
if ((rc != 0)) || [[ -n "$out" ]]; then
  fail "systemd-analyze verify: exit $rc"; echo "$out"
else
  echo "systemd-analyze verify: ${#units[@]} units, no warning"
fi

# The same verify must catch a broken unit (else the check above proves nothing).
sed -e 's/^ProtectSystem=strict/ProtectSystem=stricter/' "$work/moonquota-reconcile.service" > "$work/broken.service"
[[ -n "$(systemd-analyze verify --man=no "$work/broken.service" 2>&1)" ]] || fail "verify did not report a bad value"

python3 "$(dirname "$0")/systemd_flags.py" "$tools_dir" "$units_dir" || fail "ExecStart flags"
# ... and must catch a flag the tool does not have, and a variable the example does not set.
mkdir "$work/mutated"
cp "$units_dir"/*.env "$work/mutated/"
sed -e 's/--format prom/--formatt prom/' "$units_dir/moonquota-rebuild-check.service" > "$work/mutated/a.service"
python3 "$(dirname "$0")/systemd_flags.py" "$tools_dir" "$work/mutated" >/dev/null && fail "an unknown flag passed"
sed -e 's/\${MOONQUOTA_TEXTFILE}/${MOONQUOTA_TEXT_FILE}/' "$units_dir/moonquota-rebuild-check.service" > "$work/mutated/a.service"
python3 "$(dirname "$0")/systemd_flags.py" "$tools_dir" "$work/mutated" >/dev/null && fail "an unset variable passed"
finish
