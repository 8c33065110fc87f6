#!/usr/bin/env bash
# The doc-test (issue 11): runs every command shown in README.md and docs/cli/*.md so the docs stay
# true. A command is a line inside a fenced code block that begins with one of our tool names
# (optionally prefixed by build/tools/ or by a `$ ` prompt; in a block that uses `$ ` prompts only the
# prompted lines are commands, the rest is output; a prompted line that is not one of our tools, such
# as `$ cp ...`, is run too, as setup that must exit 0). Backslash-continued lines are joined, a trailing
# `; echo $?` is dropped, and the command runs with bash from the source dir with TOOLS_DIR first
# on PATH.
#
# A command passes when it exits 0 or 1 (1 = found something). 2 is a usage error (a doc showing a
# wrong flag), 3-5 are failures too, unless the block carries `<!-- doc-test: exit N -->` on the
# line right before its opening fence (the docs say it fails on purpose; then exactly N). A block
# that cannot run carries `<!-- doc-test: skip (reason) -->` there; a skip without a reason fails.
#
# Placeholders that cannot run as written are substituted through the table below (literal text,
# in order). Paths under /tmp/, and every --output/--out value, go to a temporary directory that
# is removed at the end; nothing is written into the source tree (checked).
# Usage: run_doc_commands.sh TOOLS_DIR SOURCE_DIR [MARKDOWN_FILE...]
set -uo pipefail
tools_dir="$(cd "$1" && pwd)"; source_dir="$(cd "$2" && pwd)"; shift 2
tools='quota-rebuild|quota-reconcile|snapshot-inspect|oplog-inspect|snapshot-forge|snapshot-golden'
tmp="$(mktemp -d)"
stand_in_pid=""
cleanup() {
  if [[ -n "$stand_in_pid" ]]; then kill "$stand_in_pid" 2>/dev/null; wait "$stand_in_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

# A master stand-in (test support) serving the bundled genuine store r1 as a running master would.
r1="snapshots/genuine-live/r1_quiescent_orphan"
(cd "$source_dir" && exec "$tools_dir/master-stand-in" --store "$r1/store" --policy "$r1/policy.yaml" \
  --model live >"$tmp/stand-in.url") &
stand_in_pid=$!
for _ in $(seq 1 200); do [[ -s "$tmp/stand-in.url" ]] && break; sleep 0.05; done
master="$(head -n 1 "$tmp/stand-in.url")"
[[ "$master" == http://127.0.0.1:* ]] || { echo "master-stand-in did not start"; exit 1; }

# A policy the master refuses, as shown in docs/cli/quota-rebuild.md ("Bad policy").
printf 'version: 1\ntenants:\n  - name: "alpha"\n    quota: 12XB\n' >"$tmp/bad.yaml"

# placeholder -> what runs instead (literal, applied in this order to every command). Each
# Markdown file gets its own work directory $work (under $tmp): /tmp/ in a command means it.
placeholders=(
  "/var/lib/mooncake/snapshots" "$r1/store"
  "STORE/" "$r1/store/"
  "--store STORE" "--store $r1/store"
  "--policy POLICY" "--policy $r1/policy.yaml"
  "--policy tenant_quota.yaml" "--policy $r1/policy.yaml"
  "/mnt/snap" "$r1/store"
  "/etc/mooncake/policy.yaml" "$r1/policy.yaml"
  "http://MASTER:9003" "$master"
  "http://NEW-LEADER:9003" "$master"
  "http://master-0:9003" "$master"
  "http://master-1:9003" "$master"
  "--restore-time MS" "--restore-time 1795956296529"
  "ID_A ID_B" "20261129_124452_790 20261129_124455_488"
  "--policy bad.yaml" "--policy $tmp/bad.yaml"
  "/var/lib/moonquota/" "@WORK@/var-lib-moonquota/"
  "/var/lib/node_exporter/textfile/" "@WORK@/"
)

marker="$tmp/started"; touch "$marker"; sleep 1
ran=0; skipped=0; failed=0; setups=0
moved_from=(); moved_to=()
run_one() { # FILE LINE EXPECTED_EXIT COMMAND [setup]
  local file="$1" line="$2" expected="$3" cmd="$4" setup="${5:-}" i rc
  cmd="${cmd%; echo \$?}"
  cmd="$(sed -E -e 's#(^|[[:space:]])build/tools/#\1#g' -e 's#(^|[[:space:]=])/tmp/#\1@WORK@/#g' <<<"$cmd")"
  for ((i = 0; i < ${#placeholders[@]}; i += 2)); do cmd="${cmd//"${placeholders[i]}"/${placeholders[i + 1]}}"; done
  cmd="${cmd//@WORK@/$work}"
  for ((i = 0; i < ${#moved_from[@]}; i++)); do cmd="${cmd//"${moved_from[i]}"/${moved_to[i]}}"; done
  # --output/--out values outside the temporary directory go into it (and later reads follow them).
  local output_re='--(output|out)[=[:space:]]+([^-[:space:]][^[:space:]]*)'
  while [[ "$cmd" =~ $output_re ]]; do
    local value="${BASH_REMATCH[2]}" moved
    [[ "$value" == "$work"* ]] && break
    moved="$work/out-$(basename "$value")"
    cmd="${cmd//"$value"/$moved}"
    moved_from+=("$value"); moved_to+=("$moved")
  done
  if [[ -n "$setup" ]]; then setups=$((setups + 1)); else ran=$((ran + 1)); fi
  (cd "$source_dir" && PATH="$tools_dir:$PATH" timeout 120 bash -c "$cmd") >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  local ok=0
  if [[ -n "$expected" ]]; then [[ "$rc" == "$expected" ]] && ok=1; else [[ "$rc" == 0 || "$rc" == 1 ]] && ok=1; fi
  if ((ok)); then
    echo "ok    (exit $rc) $file:$line: ${setup:+[setup] }$cmd"
  else
    failed=$((failed + 1))
    echo "FAIL  (exit $rc, expected ${expected:-0 or 1}) $file:$line: $cmd"
    sed 's/^/      stderr: /' "$tmp/stderr" | head -n 5
  fi
}

check_file() { # FILE (relative to the source dir)
  local file="$1" n=0 in_block=0 directive="" block_directive="" prompted=0 pending="" pending_line=0 start=0
  local -a block=()
  work="$tmp/work/${file//\//_}"; mkdir -p "$work/var-lib-moonquota"; moved_from=(); moved_to=()
  while IFS= read -r text || [[ -n "$text" ]]; do
    n=$((n + 1))
    if ((!in_block)); then
      if [[ "$text" =~ ^[[:space:]]*\`\`\` ]]; then
        in_block=1; block=(); start=$n; block_directive="$directive"
      elif [[ "$text" =~ ^\<!--\ doc-test:\ (.*)\ --\>$ ]]; then
        directive="${BASH_REMATCH[1]}"; continue
      fi
      [[ -n "$text" ]] && directive=""
      continue
    fi
    if [[ "$text" =~ ^[[:space:]]*\`\`\` ]]; then
      in_block=0
      # The commands of this block.
      prompted=0
      local l
      for l in "${block[@]}"; do [[ "$l" == '$ '* ]] && prompted=1; done
      local -a cmds=() lines=() kinds=(); pending=""; pending_line=0
      local k=0 is_cmd kind=1
      for l in "${block[@]}"; do
        k=$((k + 1))
        if [[ -n "$pending" ]]; then
          pending="${pending% \\} ${l#"${l%%[![:space:]]*}"}"
        else
          is_cmd=0
          if ((prompted)); then
            [[ "$l" == '$ '* ]] || continue
            l="${l#\$ }"; is_cmd=2
            [[ "$l" =~ ^(build/tools/)?($tools)([[:space:]]|$) ]] && is_cmd=1
          else
            [[ "$l" =~ ^(build/tools/)?($tools)([[:space:]]|$) ]] && is_cmd=1
          fi
          ((is_cmd)) || continue
          pending="$l"; pending_line=$((start + k)); kind=$is_cmd
        fi
        if [[ "$pending" != *\\ ]]; then cmds+=("$pending"); lines+=("$pending_line"); kinds+=("$kind"); pending=""; fi
      done
      [[ -n "$pending" ]] && { cmds+=("$pending"); lines+=("$pending_line"); kinds+=("$kind"); }
      local tool_cmds=0
      for kind in "${kinds[@]}"; do ((kind == 1)) && tool_cmds=$((tool_cmds + 1)); done
      ((tool_cmds == 0)) && continue
      if [[ "$block_directive" =~ ^skip ]]; then
        if [[ ! "$block_directive" =~ ^skip\ \(.+\)$ ]]; then
          failed=$((failed + 1)); echo "FAIL  $file:$start: a doc-test skip needs a reason: skip (why)"
        fi
        skipped=$((skipped + tool_cmds))
        echo "skip  $file:$start: $tool_cmds command(s): ${block_directive#skip }"
        continue
      fi
      local expected=""
      if [[ "$block_directive" =~ ^exit\ ([0-9]+)$ ]]; then
        expected="${BASH_REMATCH[1]}"
      elif [[ -n "$block_directive" ]]; then
        failed=$((failed + 1)); echo "FAIL  $file:$start: unknown doc-test directive '$block_directive'"
      fi
      for k in "${!cmds[@]}"; do
        # A prompted line that is not one of our tools (cp, rm, echo ...) prepares the next ones: exit 0.
        if ((kinds[k] == 2)); then run_one "$file" "${lines[k]}" 0 "${cmds[k]}" setup; else run_one "$file" "${lines[k]}" "$expected" "${cmds[k]}"; fi
      done
      continue
    fi
    block+=("$text")
  done <"$source_dir/$file"
}

if (($# == 0)); then
  set -- README.md
  for f in "$source_dir"/docs/cli/*.md; do set -- "$@" "docs/cli/$(basename "$f")"; done
fi
for f in "$@"; do check_file "$f"; done

# Nothing may have been written into the source tree (the build dir and .git aside).
build_dir="$(cd "$tools_dir/.." && pwd)"
written="$(find "$source_dir" \( -path "$source_dir/.git" -o -path "$build_dir" \) -prune -o -type f -newer "$marker" -print | head -n 5)"
if [[ -n "$written" ]]; then
  failed=$((failed + 1)); echo "FAIL  the commands wrote into the source tree:"; echo "$written"
fi

echo "doc-test: $ran commands ran ($setups setup lines), $skipped skipped, $failed failed"
((failed == 0 && ran > 0))
