#!/usr/bin/env bash
# Installs every Debian 12 package moonquota needs to build, test and run its test services.
# Idempotent: re-running it only re-checks what is installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config curl
  libcli11-dev libmsgpack-cxx-dev libboost-dev libzstd-dev zstd
  libspdlog-dev libfmt-dev nlohmann-json3-dev librocksdb-dev
  libgtest-dev libgmock-dev libyaml-cpp-dev libxxhash-dev libcurl4-openssl-dev
  libcpp-httplib-dev libhiredis-dev libjsoncpp-dev clang-format
  cmark cmark-gfm
  etcd-server etcd-client redis-server redis-tools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
