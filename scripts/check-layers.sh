#!/usr/bin/env bash
# The include rule of moonquota, defined here and nowhere else, and checked.
#
# lib/ is one library in layers, one folder each. A folder includes itself and the folders its
# row below lists; a subfolder belongs to its top folder (lib/report/rebuild/ is `report`). A
# folder lists only folders of rows above its own, so the layers cannot form a cycle. tools/ and
# bench/ may include any lib folder. Include paths are rooted at lib/ ("format/manifest.hpp"),
# never relative; a tool's own headers ("tool_common.hpp") sit beside it.
#
# A third-party header is included only where its concern lives: the second table names, for each
# family, the files (globs from the repository root; `*` spans folders) that may include it. A
# header of no family fails too: a new dependency is placed here before it is used. The C++ and
# POSIX system headers are the family `system`, allowed everywhere.
#
# forge (decided): forge is the write side. It may include `source` for the OpLog key
# layout (oplog_keys, source::KeyValue) and for the object store and S3 client it uploads a forged
# store with (forge/s3_publish: S3Client, s3_url, object_store), so the code that writes a store
# and the code that reads it cannot disagree about keys, URLs or requests; a second S3 client in
# forge would be the disagreement this rule prevents. Only `app` (the command layer, which runs
# snapshot-forge's command) includes `forge` among lib folders; tools/ and bench/ do too.
#
# Third-party decisions (the reasons; what the table says is the rule). Where the rule written
# before this script (CONTRIBUTING.md, docs/ARCHITECTURE.md) disagreed with the code, the code was
# right, and the table follows it, except for zstd in forge, which moved:
# - nlohmann_json is the JSON of our own documents and of the services we call: etcd's gateway
#   and OpLog export files (source), the master's tenant list (reconcile), history records,
#   reports, the serve endpoints, forge scenarios, bench results. (The old prose said report/ and
#   forge/ only; the five files of source, reconcile, history and service that parse or write
#   JSON where the data arrives are right.) Not below `source`: the OpLog batch record the master
#   writes with jsoncpp is parsed and re-serialized with jsoncpp (format/oplog_batch.cpp) because
#   byte-exact canonical output is the point. Not in tools/: a tool renders through lib/report.
# - fmt is general-purpose text formatting (a public dependency of the library, like the
#   standard library): anywhere.
# - curl only in source/s3_client.cpp, the S3 client (libcurl signs SigV4); cpp-httplib stays the
#   etcd/master client (source/http_call.cpp) and the serve listener (service/http_server.cpp).
# - zstd only in util/zstd_*: forge's streamed frame with a pledged size, which included zstd in
#   forge/streaming_file.cpp, is util::ZstdStreamWriter (util/zstd_file) now.
# - msgpack-c only in bench/bench_phases.cpp, the naive decoder the benchmark compares ours with;
#   lib/ has its own msgpack reader and writer that follow msgpack-c's rules without it.
# - CLI11 in tools/ and bench/ (both parse command lines); spdlog in tools/ only.
# tests/ is not checked: tests include any lib folder, googletest, and third-party libraries for
# their stand-ins (httplib, hiredis) and differential checks (jsoncpp).
#
# Usage: scripts/check-layers.sh [REPO_ROOT]   (default: the repository this script is in)
# Prints each violation as `file:line: <folder> may not include "<header>" (allowed: ...)` and
# exits 1 on any; exits 0 when there is none, 2 when REPO_ROOT has no lib/.
set -euo pipefail

# folder      may include (besides itself)
LAYERS='
util          -
model         util
format        util model
source        util model format
restore       util model format source
quota         util model format source restore
inspect       util model format source restore
reconcile     util model format source restore quota
history       util model format source restore quota reconcile
golden        util model format source restore quota inspect
report        util model format source restore quota inspect reconcile history golden
forge         util model format source
app           util model format source restore quota inspect reconcile history golden report forge
service       util model format source restore quota inspect reconcile history report app
'

# family         headers (ERE, no spaces, on the name in < >)  may be included by (globs; - none)
THIRD_PARTY='
zstd             ^(zstd|zstd_errors|zdict)\.h$                lib/util/zstd_*
yaml-cpp         ^yaml-cpp/                                   lib/format/policy_yaml.cpp lib/format/yaml_guard.* lib/format/allowed_changes_yaml.cpp
jsoncpp          ^json/                                       lib/format/oplog_batch.cpp
xxhash           ^xxhash\.h$                                  lib/format/oplog_batch.cpp lib/inspect/snapshot_fingerprint.cpp
cpp-httplib      ^httplib\.h$                                 lib/source/http_call.cpp lib/service/http_server.cpp
curl             ^curl/                                       lib/source/s3_client.cpp
hiredis          ^hiredis/                                    lib/source/redis_catalog.cpp
rocksdb          ^rocksdb/                                    lib/history/*
nlohmann_json    ^nlohmann/                                   lib/source/* lib/reconcile/* lib/history/* lib/report/* lib/service/* lib/forge/* bench/*
fmt              ^fmt/                                        lib/* tools/* bench/*
CLI11            ^CLI/                                        tools/* bench/*
spdlog           ^spdlog/                                     tools/*
msgpack-c        ^msgpack(\.h|\.hpp|/)                        bench/bench_phases.cpp
googletest       ^(gtest|gmock)/                              -
system           ^[a-z0-9_]+$                                 *
system           ^(sys|netinet|arpa|linux)/                   *
system           ^(unistd|fcntl|signal|pthread|spawn|poll|netdb|errno|dirent|dlfcn|sched|termios|syslog)\.h$  *
'

root="${1:-$(dirname "${BASH_SOURCE[0]}")/..}"
cd "$root" || exit 2
[[ -d lib ]] || { echo "check-layers: no lib/ in $root" >&2; exit 2; }

mapfile -t folders < <(find lib -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort)
trees=(lib)
for t in tools bench; do [[ -d $t ]] && trees+=("$t"); done
mapfile -t files < <(find "${trees[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' \
  -o -name '*.hh' -o -name '*.inl' -o -name '*.ipp' \) | LC_ALL=C sort)

{
  if ((${#folders[@]} > 0)); then printf 'D %s\n' "${folders[@]}"; fi
  if ((${#files[@]} > 0)); then
    printf 'F %s\n' "${files[@]}"
    grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' -- "${files[@]}" | sed 's/^/I /' || true
  fi
} | LAYERS="$LAYERS" THIRD_PARTY="$THIRD_PARTY" awk '
function fail(msg) { print msg; bad++ }
function glob_re(g,    r, i, c) {
  r = "^"
  for (i = 1; i <= length(g); i++) {
    c = substr(g, i, 1)
    if (c == "*") r = r ".*"
    else if (index("\\^$.[]|()+?{}", c)) r = r "\\" c
    else r = r c
  }
  return r "$"
}
BEGIN {
  # The tables come through the environment: awk -v would read the backslashes of the regexes.
  layers = ENVIRON["LAYERS"]
  third = ENVIRON["THIRD_PARTY"]
  n = split(layers, rows, "\n")
  for (i = 1; i <= n; i++) {
    k = split(rows[i], w, " ")
    if (k == 0) continue
    if (w[1] in row) fail("scripts/check-layers.sh: folder " w[1] " has two rows in the layer table")
    row[w[1]] = 1
    allowed[w[1]] = ""
    for (j = 2; j <= k; j++) {
      if (w[j] == "-") continue
      if (!(w[j] in row) || w[j] == w[1])
        fail("scripts/check-layers.sh: " w[1] " may include only folders of rows above its own, not " w[j])
      may[w[1], w[j]] = 1
      allowed[w[1]] = allowed[w[1]] (allowed[w[1]] == "" ? "" : " ") w[j]
    }
    if (allowed[w[1]] == "") allowed[w[1]] = "nothing but itself"
  }
  n = split(third, rows, "\n")
  families = 0
  for (i = 1; i <= n; i++) {
    k = split(rows[i], w, " ")
    if (k == 0) continue
    families++
    fam[families] = w[1]
    fam_re[families] = w[2]
    fam_globs[families] = ""
    fam_allowed[families] = ""
    for (j = 3; j <= k; j++) {
      if (w[j] == "-") continue
      fam_globs[families] = fam_globs[families] (fam_globs[families] == "" ? "" : "\n") glob_re(w[j])
      fam_allowed[families] = fam_allowed[families] (fam_allowed[families] == "" ? "" : " ") w[j]
    }
    if (fam_allowed[families] == "") fam_allowed[families] = "nowhere in lib/, tools/, bench/"
  }
}
$1 == "D" {
  present[$2] = 1
  if (!($2 in row)) {
    fail("lib/" $2 "/: folder " $2 " is not in the layer table of scripts/check-layers.sh (place it: which folders may it include?)")
    unplaced[$2] = 1
  }
  next
}
$1 == "F" {
  f = substr($0, 3)
  if (f ~ /^lib\/[^\/]+$/) fail(f ": a source file of lib/ belongs in a folder")
  else if (f ~ /^lib\//) {
    split(f, p, "/")
    if (p[2] in unplaced) fail(f ": its folder " p[2] " is not in the layer table of scripts/check-layers.sh")
  }
  next
}
$1 == "I" {
  s = substr($0, 3)
  # file:line:text (file names hold no colon)
  c1 = index(s, ":"); file = substr(s, 1, c1 - 1); s = substr(s, c1 + 1)
  c2 = index(s, ":"); line = substr(s, 1, c2 - 1); text = substr(s, c2 + 1)
  if (!match(text, /include[ \t]*[<"][^>"]*[>"]/)) next
  spec = substr(text, RSTART, RLENGTH)
  sub(/^include[ \t]*/, "", spec)
  open = substr(spec, 1, 1)
  header = substr(spec, 2, length(spec) - 2)
  where = file ":" line ": "
  if (file ~ /^lib\//) { split(file, p, "/"); folder = p[2]; in_lib = 1 }
  else { split(file, p, "/"); folder = p[1]; in_lib = 0 }
  if (open == "\"") {
    first = header
    sub(/\/.*/, "", first)
    if (header ~ /(^|\/)\.\.?\//) {
      fail(where folder " may not include \"" header "\" (include paths are rooted at lib/, never relative)")
    } else if (index(header, "/") == 0) {
      if (in_lib) fail(where folder " may not include \"" header "\" (include paths are rooted at lib/: \"<folder>/" header "\")")
    } else if (!(first in present)) {
      fail(where folder " may not include \"" header "\" (" first " is not a folder of lib/; include paths are rooted at lib/)")
    } else if (in_lib && first != folder && !((folder, first) in may) && !(folder in unplaced)) {
      fail(where folder " may not include \"" header "\" (allowed: " allowed[folder] ")")
    }
    next
  }
  for (i = 1; i <= families; i++) {
    if (header !~ fam_re[i]) continue
    k = split(fam_globs[i], g, "\n")
    for (j = 1; j <= k; j++) if (file ~ g[j]) next
    fail(where folder " may not include <" header "> (" fam[i] ", allowed: " fam_allowed[i] ")")
    next
  }
  fail(where folder " includes <" header ">, of no family in the third-party table of scripts/check-layers.sh (add it there)")
}
END {
  for (f in row) if (!(f in present)) fail("scripts/check-layers.sh: folder " f " of the layer table is not in lib/")
  if (bad > 0) { print "check-layers: " bad " violation" (bad == 1 ? "" : "s") > "/dev/stderr"; exit 1 }
  print "check-layers: lib/, tools/ and bench/ follow the include rule"
}
'
