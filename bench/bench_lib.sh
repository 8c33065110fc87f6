# shellcheck shell=bash
# Sourced by scripts/bench.sh and the scripts in bench/: what they do the same way (usage, forged
# stores, argument checks, the work directory, timing a command).

# Prints the sourcing script's head comment (its usage), without the '#'.
bench_usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

# bench_forge FORGE THREADS N DIR [ADDED [TAIL]]: a store of N objects (snapshot-forge --large N,
# seed 1) plus ADDED more (the twin, --added-objects) in DIR, with TAIL > 0 also the OpLog tail of
# TAIL entries that continues it (--oplog-tail: DIR/oplog.jsonl), reused when DIR holds that very
# forge (its .bench-objects tag), so the two scripts share a --work-dir's stores. Progress on
# stderr. A DIR that exists without the tag (not empty, or not a directory) is never replaced: exit 3.
bench_forge() {
  local forge="$1" threads="$2" n="$3" dir="$4" added="${5:-0}" tail="${6:-0}"
  local tag="$n" extra=()
  if ((added > 0)); then tag="$n+$added"; extra=(--added-objects "$added"); fi
  if ((tail > 0)); then tag="$tag tail $tail"; extra+=(--oplog-tail "$tail"); fi
  if [[ -f "$dir/.bench-objects" && "$(cat "$dir/.bench-objects")" == "$tag" ]]; then return; fi
  if [[ -e "$dir" && ! -f "$dir/.bench-objects" && -n "$(ls -A "$dir" 2>/dev/null || echo x)" ]]; then
    echo "$(basename "$0"): $dir exists and was not forged by a bench script: move it or use another --work-dir" >&2
    exit 3
  fi
  echo "$(basename "$0"): forging $tag objects into $dir" >&2
  rm -rf "$dir"
  "$forge" --large "$n" "${extra[@]}" --out "$dir" --threads "$threads" -q
  echo "$tag" >"$dir/.bench-objects"
}

# bench_positive_integers WHAT VALUE...: every VALUE is a positive integer and there is one at
# least; otherwise a usage error (exit 2) naming WHAT.
bench_positive_integers() {
  local what="$1" v; shift
  [[ $# -gt 0 ]] || { echo "$(basename "$0"): $what: at least one value is needed" >&2; exit 2; }
  for v in "$@"; do
    [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "$(basename "$0"): $what: '$v' is not a positive integer" >&2; exit 2; }
  done
}

# bench_need_value FLAG ARGC [VALUE]: a flag that takes a value got one (ARGC is the "$#" of the
# argument loop, FLAG included); otherwise a usage error (exit 2) instead of bash's "unbound variable".
bench_need_value() {
  if [[ "$2" -lt 2 || -z "${3:-}" ]]; then
    echo "$(basename "$0"): $1 needs a value (try --help)" >&2
    exit 2
  fi
}

# bench_work_dir DIR KEEP: sets `work` to DIR (created if missing), or to a new temporary
# directory when DIR is empty, removed when the script exits unless KEEP is 1 (then its path is
# said on stderr). A DIR that cannot be a writable directory is exit 3, said before any work.
bench_work_dir() {
  local dir="$1" keep="$2" me; me="$(basename "$0")"
  if [[ -z "$dir" ]]; then
    work="$(mktemp -d "${TMPDIR:-/tmp}/moonquota-bench.XXXXXX")" ||
      { echo "$me: cannot create a work directory under ${TMPDIR:-/tmp}" >&2; exit 3; }
    if [[ "$keep" -eq 1 ]]; then
      echo "$me: work directory (kept): $work" >&2
    else
      trap 'rm -rf "$work"' EXIT
    fi
    return
  fi
  if ! mkdir -p -- "$dir" 2>/dev/null || [[ ! -d "$dir" || ! -w "$dir" ]]; then
    echo "$me: --work-dir $dir: not a writable directory" >&2
    exit 3
  fi
  work="$(cd -- "$dir" && pwd)"  # absolute: git -C and cmake -S resolve relative paths differently
}

# bench_best RUNS OK LABEL CMD...: runs CMD RUNS times under GNU time (its stdout into
# $work/out.LABEL, its stderr into $work/err.LABEL) and prints "wall user sys peak_kib" of the run
# with the best wall time. A run that exits with more than OK (0; 1 where exit 1 is a result:
# verify's findings, diff's differences) is no measurement: it ends the script (exit 1, through the
# caller's `read ... < <(bench_best ...)`, which then reads nothing) with its stderr's last lines.
bench_best() {
  local runs="$1" ok="$2" label="$3" best_line="" line rc _
  shift 3
  for _ in $(seq 1 "$runs"); do
    rc=0
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out.$label" 2>"$work/err.$label" || rc=$?
    if ((rc > ok)); then
      echo "$(basename "$0"): $label: exit $rc: $*" >&2
      tail -n 5 "$work/err.$label" >&2
      exit 1
    fi
    line="$(tail -n 1 "$work/time")"  # after "Command exited with non-zero status 1" when rc is 1
    if [[ -z "$best_line" ]] || awk -v a="${line%% *}" -v b="${best_line%% *}" 'BEGIN{exit !(a<b)}'; then
      best_line="$line"
    fi
  done
  echo "$best_line"
}
