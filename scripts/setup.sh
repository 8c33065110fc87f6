#!/usr/bin/env bash
# Installs the Debian 12 packages moonquota needs, only those that are missing. Idempotent.
#   scripts/setup.sh           everything to build, test and run the test services: the tools'
#                              packages, GoogleTest, the servers the tests start (etcd, Redis,
#                              Prometheus), the packaging checks, the test S3 server (s3rver,
#                              pinned in scripts/s3rver/package-lock.json) into
#                              scripts/s3rver/node_modules and the JUnit XML parser of the
#                              golden tool's test (junit2json, pinned in
#                              scripts/junit-reader/package-lock.json) into
#                              scripts/junit-reader/node_modules (project-local, nothing global)
#   scripts/setup.sh --tools   only what building the six tools needs (scripts/quickstart.sh):
#                              no test servers, no npm, no packaging or benchmark tools
set -euo pipefail

mode=all
case "${1:-}" in
  "") ;;
  --tools) mode=tools ;;
  *) echo "usage: $0 [--tools]" >&2; exit 2 ;;
esac

# The compiler, CMake and the libraries the library and the tools link.
packages=(
  build-essential cmake ninja-build pkg-config git
  libcli11-dev libzstd-dev libspdlog-dev libfmt-dev nlohmann-json3-dev librocksdb-dev
  libyaml-cpp-dev libxxhash-dev libcpp-httplib-dev libhiredis-dev libjsoncpp-dev libcurl4-openssl-dev
)
if [[ $mode == all ]]; then
  packages+=(
    curl libmsgpack-cxx-dev libboost-dev zstd libgtest-dev libgmock-dev clang-format
    cmark cmark-gfm
    etcd-server etcd-client redis-server redis-tools
    help2man groff-base man-db lintian dpkg-dev file binutils zsh
    prometheus python3 python3-yaml systemd time valgrind
  )
fi
# libmsgpack-cxx-dev, libboost-dev: the naive baseline of the benchmark (bench/). curl: the serve
# and S3 tests. help2man: the man pages; groff-base, man-db: their test; lintian, dpkg-dev
# (dpkg-shlibdeps), file (cpack's DEB generator), binutils (objdump): the package test; zsh: the
# zsh completion test. prometheus (promtool and the server): the deploy.prometheus_* tests;
# python3, python3-yaml: their scrape target and the Kubernetes manifest test; systemd
# (systemd-analyze): the unit file test; time (GNU time: wall, CPU, peak RSS): scripts/bench.sh
# and its test; valgrind (callgrind's instruction counts): bench/instruction_counts.sh and its test.

# Node.js runs s3rver and junit2json. A machine with another Node.js (NodeSource's nodejs ships npm
# and conflicts with Debian's npm package) keeps it: Debian's nodejs and npm are installed only when
# missing.
if [[ $mode == all ]]; then
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  # Debian's prometheus starts its own daemon (port 9090) from its postinst where an init system
  # runs; the tests start theirs on a free port. A prometheus installed here is stopped and
  # disabled (one that was already installed is left alone).
  if [[ " ${missing[*]} " == *" prometheus "* ]]; then
    if [[ -d /run/systemd/system ]]; then
      "${sudo_cmd[@]}" systemctl disable --now prometheus.service >/dev/null 2>&1 || true
    elif [[ -x /etc/init.d/prometheus ]]; then
      "${sudo_cmd[@]}" /etc/init.d/prometheus stop >/dev/null 2>&1 || true
      "${sudo_cmd[@]}" update-rc.d prometheus disable >/dev/null 2>&1 || true
    fi
  fi
fi

[[ $mode == all ]] || exit 0

# The npm packages, each exactly as locked in its folder beside this script: s3rver (the test S3
# server) and junit2json (the JUnit reader of tests/golden_tool/junit_test.sh). `npm ci` wipes and
# reinstalls a folder's node_modules, so it runs only when the lock differs from the one the last
# install recorded (.moonquota-lock, inside node_modules). FOLDER:BIN, BIN the program it installs.
for npm_package in s3rver:s3rver junit-reader:junit2json; do
  npm_dir="$(cd "$(dirname "$0")" && pwd)/${npm_package%%:*}"
  stamp="$npm_dir/node_modules/.moonquota-lock"
  if [[ ! -x "$npm_dir/node_modules/.bin/${npm_package#*:}" ]] ||
    ! cmp -s "$npm_dir/package-lock.json" "$stamp"; then
    (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$npm_dir/package-lock.json" "$stamp"
  fi
done
