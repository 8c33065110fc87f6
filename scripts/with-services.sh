#!/usr/bin/env bash
# Runs a command with a private etcd, redis-server and S3 server (s3rver) on free loopback ports
# chosen at run time, then stops them by PID and removes their temporary directories (logs:
# etcd.log, redis.log, s3rver.log in the services' temporary directory).
#   scripts/with-services.sh COMMAND [ARGS...]
# Exports ETCD_PORT, REDIS_PORT, MOONQUOTA_ETCD=127.0.0.1:<port>, MOONQUOTA_REDIS=127.0.0.1:<port>,
# and for s3rver S3_PORT, MOONQUOTA_S3_ENDPOINT=http://127.0.0.1:<port> (path-style addressing),
# MOONQUOTA_S3_VHOST_ENDPOINT=http://s3.localhost:<port> (virtual-hosted addressing works through
# it: BUCKET.s3.localhost resolves to 127.0.0.1), MOONQUOTA_S3_ACCESS_KEY_ID and
# MOONQUOTA_S3_SECRET_ACCESS_KEY (s3rver's fixed credentials, S3RVER / S3RVER). s3rver starts with
# no bucket: each test creates its own. s3rver is installed by scripts/setup.sh into
# scripts/s3rver/node_modules; without it, under CI=true this script fails (exit 4), otherwise it
# warns and runs COMMAND without the S3_* variables (tests that need S3 then skip).
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

svc="$(mktemp -d "${TMPDIR:-/tmp}/moonquota-svc.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$svc"
}
trap cleanup EXIT

# A free loopback port: bind port 0 and read what the kernel chose.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# s3rver: Node.js and the locked install of scripts/setup.sh. Node >= 17 (OpenSSL 3) needs the
# legacy provider for s3rver's continuation tokens (DES): without it a truncated listing is a 500.
s3rver_bin="$(cd "$(dirname "$0")" && pwd)/s3rver/node_modules/.bin/s3rver"
s3_port=""
if [[ -x "$s3rver_bin" ]] && command -v node >/dev/null 2>&1; then
  s3_port="$(free_port)"
  s3_node_options="${NODE_OPTIONS:-}"
  if node --openssl-legacy-provider -e '' >/dev/null 2>&1; then
    s3_node_options="--openssl-legacy-provider $s3_node_options"
  fi
  mkdir "$svc/s3"
  NODE_OPTIONS="$s3_node_options" "$s3rver_bin" --directory "$svc/s3" --address 127.0.0.1 --port "$s3_port" \
    --service-endpoint localhost --silent >"$svc/s3rver.log" 2>&1 &
  pids+=($!)
elif [[ "${CI:-}" == "true" ]]; then
  echo "with-services: s3rver is not installed (CI=true): run scripts/setup.sh" >&2
  exit 4
else
  echo "with-services: warning: s3rver is not installed (run scripts/setup.sh): running without S3;" \
    "tests that need it skip" >&2
fi

etcd_port="$(free_port)"; etcd_peer="$(free_port)"; redis_port="$(free_port)"
redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --protected-mode yes \
  --daemonize no --dir "$svc" --logfile "$svc/redis.log" &
pids+=($!)
etcd --name moonquota-test --data-dir "$svc/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "moonquota-test=http://127.0.0.1:$etcd_peer" --initial-cluster-state new \
  --logger zap --log-outputs "$svc/etcd.log" &
pids+=($!)

ready=0
for _ in $(seq 1 150); do
  if redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 &&
     curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null 2>&1 &&
     { [[ -z "$s3_port" ]] || curl -sf "http://127.0.0.1:$s3_port/" >/dev/null 2>&1; }; then ready=1; break; fi
  sleep 0.1
done
if [[ $ready -ne 1 ]]; then
  echo "with-services: etcd, redis-server or s3rver did not come up" >&2
  tail -n 20 "$svc/etcd.log" "$svc/redis.log" "$svc/s3rver.log" >&2 || true
  exit 4
fi

export ETCD_PORT="$etcd_port" REDIS_PORT="$redis_port"
export MOONQUOTA_ETCD="127.0.0.1:$etcd_port" MOONQUOTA_REDIS="127.0.0.1:$redis_port"
if [[ -n "$s3_port" ]]; then
  export S3_PORT="$s3_port" MOONQUOTA_S3_ENDPOINT="http://127.0.0.1:$s3_port"
  export MOONQUOTA_S3_VHOST_ENDPOINT="http://s3.localhost:$s3_port"
  export MOONQUOTA_S3_ACCESS_KEY_ID=S3RVER MOONQUOTA_S3_SECRET_ACCESS_KEY=S3RVER
fi
set +e
"$@"
rc=$?
set -e
exit $rc
