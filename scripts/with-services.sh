#!/usr/bin/env bash
# Runs a command with a private etcd and redis-server on free loopback ports chosen at run time,
# then stops both by PID and removes their temporary directories.
#   scripts/with-services.sh COMMAND [ARGS...]
# Exports ETCD_PORT, REDIS_PORT, MOONQUOTA_ETCD=127.0.0.1:<port>, MOONQUOTA_REDIS=127.0.0.1:<port>.
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
     curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.1
done
if [[ $ready -ne 1 ]]; then
  echo "with-services: etcd or redis-server did not come up" >&2
  tail -n 20 "$svc/etcd.log" "$svc/redis.log" >&2 || true
  exit 4
fi

export ETCD_PORT="$etcd_port" REDIS_PORT="$redis_port"
export MOONQUOTA_ETCD="127.0.0.1:$etcd_port" MOONQUOTA_REDIS="127.0.0.1:$redis_port"
set +e
"$@"
rc=$?
set -e
exit $rc
