#!/usr/bin/env bash
# `snapshot-inspect survival` against `quota-rebuild --restore-time` (issue 13): on every store
# under snapshots/ (each cluster id in it), at delays 0, 1 s, 10 s and 1 h after the snapshot's
# created_at, plus the store's restore_time_ms file when there is one, each tenant's
# charged_bytes in survival's JSON must equal the tenant's row in quota-rebuild's JSON, and a
# tenant survival charges must have a row. A tenant with nothing charged has no row unless a
# policy names it (quota-rebuild runs without a policy here). Skipped stores say why: the master
# does not restore the inspected snapshot (quota-rebuild reads another one), or the snapshot has no
# usable descriptor.txt (no created_at).
# Stores with an oplog.jsonl beside them are compared on the promotion path too (survival --path
# promote against quota-rebuild --oplog-file at the same instants: a standby bootstrapping then).
# Usage: survival_vs_rebuild.sh TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools_dir="$1"; source_dir="$2"
cd "$source_dir" || exit 1
failures=0; compared=0; skipped=0; promote_compared=0
out="$(mktemp)"; err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
# compare LABEL AT -- SURVIVAL_FLAGS... -- REBUILD_FLAGS...: survival at AT against quota-rebuild at
# AT; returns 0 when every row of quota-rebuild equals survival's charge and every tenant survival
# charges has a row (prints FAIL otherwise).
compare() {
  local label="$1" at="$2"; shift 3
  local survival_flags=() rebuild_flags=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do survival_flags+=("$1"); shift; done
  shift
  rebuild_flags=("$@")
  if ! "$tools_dir/snapshot-inspect" survival "${survival_flags[@]}" --at "@$at" --restore-time "$at" --format json \
      >"$out" 2>"$err"; then
    echo "FAIL $label @$at: survival exit $?: $(head -n 1 "$err")"; return 1
  fi
  local survival rebuild verdict rc
  survival="$(jq -c --argjson at "$at" '[.points[] | select(.at_ms == $at)][0].tenants
              | map({key: .tenant_id, value: .charged_bytes}) | from_entries' "$out")" || survival="null"
  "$tools_dir/quota-rebuild" "${rebuild_flags[@]}" --restore-time "$at" --format json >"$out" 2>"$err"
  rc=$?
  if [[ $rc -ne 0 && $rc -ne 1 ]]; then
    echo "FAIL $label @$at: quota-rebuild exit $rc: $(head -n 1 "$err")"; return 1
  fi
  rebuild="$(jq -c '.tenants | map({key: .tenant_id, value: .charged_bytes}) | from_entries' "$out")" || rebuild="null"
  verdict="$(jq -n -r --argjson s "$survival" --argjson r "$rebuild" '
    ([$r | to_entries[] | select($s[.key] != .value) | "\(.key): rebuild \(.value), survival \($s[.key])"]
     + [$s | to_entries[] | . as $e | select($e.value > 0 and ($r | has($e.key) | not)) | "\(.key): survival \(.value), no rebuild row"])
    | join("; ")')" || verdict="jq failed on survival $survival / rebuild $rebuild"
  if [[ -n "$verdict" ]]; then
    echo "FAIL $label @$at: $verdict"; return 1
  fi
  return 0
}

mapfile -t stores < <(find snapshots -mindepth 2 -maxdepth 3 -type d -name store | sort)
for store in "${stores[@]}"; do
  [[ -d "$store/mooncake_master_snapshot" ]] || continue
  for cluster_dir in "$store"/mooncake_master_snapshot/*/; do
    cluster="$(basename "$cluster_dir")"
    where=(--store "$store" --cluster-id "$cluster")
    # created_at first (a survival at delay 0 alone).
    if ! "$tools_dir/snapshot-inspect" survival "${where[@]}" --at 0 --restore-time 0 --format json >"$out" 2>"$err"; then
      echo "skip $store ($cluster): $(head -n 1 "$err")"; skipped=$((skipped + 1)); continue
    fi
    if [[ "$(jq -r '.master.restores_inspected' "$out")" != "true" ]]; then
      echo "skip $store ($cluster): the master does not restore the inspected snapshot"; skipped=$((skipped + 1)); continue
    fi
    created="$(jq -r '.snapshot.created_at_ms' "$out")"
    points=("$created" "$((created + 1000))" "$((created + 10000))" "$((created + 3600000))")
    store_parent="$(dirname "$store")"
    [[ -f "$store_parent/restore_time_ms" ]] && points+=("$(tr -d '[:space:]' < "$store_parent/restore_time_ms")")
    oplog="$store_parent/oplog.jsonl"
    for at in "${points[@]}"; do
      if compare "$store ($cluster)" "$at" -- "${where[@]}" -- "${where[@]}"; then
        compared=$((compared + 1))
      else
        failures=$((failures + 1))
      fi
      [[ -f "$oplog" ]] || continue
      if compare "$store ($cluster) promote" "$at" -- "${where[@]}" --path promote --oplog-file "$oplog" \
          -- "${where[@]}" --oplog-file "$oplog"; then
        compared=$((compared + 1)); promote_compared=$((promote_compared + 1))
      else
        failures=$((failures + 1))
      fi
    done
  done
done
echo "$compared store x point comparisons agree ($promote_compared on the promotion path), $skipped stores skipped, $failures failures"
[[ $compared -ge 20 ]] || { echo "too few comparisons"; exit 1; }
[[ $promote_compared -ge 8 ]] || { echo "too few promotion-path comparisons"; exit 1; }
[[ $failures -eq 0 ]]
