# Sourced by scripts/bench.sh and bench/instruction_counts.sh: what both do the same way.

# Prints the sourcing script's head comment (its usage), without the '#'.
bench_usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

# bench_forge FORGE THREADS N DIR [ADDED]: a store of N objects (snapshot-forge --large N, seed 1)
# plus ADDED more (the twin, --added-objects) in DIR, reused when DIR holds that very forge (its
# .bench-objects tag), so the two scripts share a --work-dir's stores. Progress on stderr.
bench_forge() {
  local forge="$1" threads="$2" n="$3" dir="$4" added="${5:-0}"
  local tag="$n" extra=()
  if ((added > 0)); then tag="$n+$added"; extra=(--added-objects "$added"); fi
  if [[ -f "$dir/.bench-objects" && "$(cat "$dir/.bench-objects")" == "$tag" ]]; then return; fi
  echo "$(basename "$0"): forging $tag objects into $dir" >&2
  rm -rf "$dir"
  "$forge" --large "$n" "${extra[@]}" --out "$dir" --threads "$threads" -q
  echo "$tag" >"$dir/.bench-objects"
}
