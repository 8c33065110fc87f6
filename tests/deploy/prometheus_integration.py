"""deploy.prometheus_integration (see prometheus_integration_test.sh).

1. Fills a metrics file from the real tools: `quota-reconcile --format prom` against
   master-stand-in serving a drift (+4096 bytes on tenant acme), and `quota-rebuild --format prom`
   on a copy of a store whose every snapshot is broken (the master would start EMPTY).
2. Serves it over HTTP (python3 http.server) and starts Debian's `prometheus` on a free loopback
   port: a temporary --storage.tsdb.path, 1 s scrape and evaluation interval, our rules file with
   every `for:` shortened to 1s (the `for:` durations themselves are proven by promtool's unit
   tests, deploy.prometheus_rules).
3. Polls /api/v1/alerts (deadlines, no fixed sleeps) until MoonquotaDriftBeyondTolerance fires for
   acme, MoonquotaMasterWouldStartEmpty fires, and MoonquotaSnapshotTooOld fires (the bundled
   store's snapshot is days old), and the failover alerts from `oplog-inspect lag --format prom`:
   MoonquotaStandbyLagging (a standby 400 s behind, dated by the samples of --db) and
   MoonquotaStandbyPositionUnknown (a cluster sampled without its standby); checks /api/v1/rules (every rule healthy);
   rewrites the file from an audit without drift and waits for the drift alert to resolve.
4. Runs every query of the Grafana dashboard (panels and variables) through /api/v1/query.

When the build's quota-reconcile has the `serve` subcommand (branch issue14-serve), the test also
starts `quota-reconcile serve --every 1s --cluster serve-cell` against a second stand-in with the
same drift, scrapes its /metrics too, sees the drift alert fire for cluster serve-cell and resolve
once that stand-in is restarted on the same port without the drift.

SCRAPE_TARGET=host:port (and SCRAPE_PATH, default /metrics) adds one more scrape target of your
own, e.g. a `quota-reconcile serve` you started; the file server stays (it carries the rebuild
check's series).
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

tools_dir, source_dir = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="mq-prom-")
procs = []
failures = []
DEADLINE_S = float(os.environ.get("PROM_TEST_DEADLINE_S", "90"))


def fail(message):
    print("FAIL: " + message, flush=True)
    failures.append(message)


def cleanup():
    for p in reversed(procs):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    shutil.rmtree(work, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_tool(args, expect_rc):
    r = subprocess.run([os.path.join(tools_dir, args[0])] + args[1:], cwd=source_dir, capture_output=True, text=True,
                       timeout=120)
    if r.returncode != expect_rc:
        fail(f"{' '.join(args)}: exit {r.returncode}, expected {expect_rc}; stderr: {r.stderr.strip()}")
    return r


def start_stand_in(extra, port=0):
    url_file = os.path.join(work, f"stand-in-{len(procs)}.url")
    out = open(url_file, "w")
    p = subprocess.Popen([os.path.join(tools_dir, "master-stand-in"), "--store", "snapshots/live-audit/store",
                          "--policy", "snapshots/live-audit/policy.yaml", "--model", "live", "--port", str(port)] + extra,
                         cwd=source_dir, stdout=out, stderr=subprocess.DEVNULL)
    procs.append(p)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        text = open(url_file).read()
        if text.endswith("\n"):
            return p, text.splitlines()[0]
        if p.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit("master-stand-in did not start")


def stop(p):
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=20)


# quota-reconcile labels its series with --cluster since branch issue14-serve; before, they have no
# cluster label and the alerts' cluster is "".
RECONCILE_CLUSTER = "cell-a" if "--cluster " in subprocess.run(
    [os.path.join(tools_dir, "quota-reconcile"), "--help"], capture_output=True, text=True).stdout else ""


HAS_SERVE = re.search(r"^Subcommands:\n(?:  .*\n)*  serve ", subprocess.run(
    [os.path.join(tools_dir, "quota-reconcile"), "--help"], capture_output=True, text=True).stdout, re.M) is not None


def audit(drift):
    """The one-shot audit's textfile against a stand-in (with or without a drift on acme)."""
    p, url = start_stand_in(["--drift", "acme=+4096"] if drift else [])
    path = os.path.join(work, "reconcile.prom")
    cluster = ["--cluster", RECONCILE_CLUSTER] if RECONCILE_CLUSTER else []
    run_tool(["quota-reconcile", "--store", "snapshots/live-audit/store", "--policy",
              "snapshots/live-audit/policy.yaml", "--master", url, "--format", "prom", "--output", path] + cluster,
             1 if drift else 0)
    stop(p)
    return open(path).read()


def publish(text):
    """Atomically replaces the file the scrape target serves."""
    tmp = os.path.join(www, ".metrics.txt.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(www, "metrics.txt"))


def api(path, params=None):
    url = f"http://127.0.0.1:{prom_port}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params, doseq=True)
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:  # 400/422: a bad query, with Prometheus' JSON error body
        return json.load(e)


def firing(name, **labels):
    alerts = api("/api/v1/alerts")["data"]["alerts"]
    return [a for a in alerts if a["labels"].get("alertname") == name and a["state"] == "firing"
            and all(a["labels"].get(k, "") == v for k, v in labels.items())]


def wait_for(what, predicate):
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE_S:
        try:
            if predicate():
                print(f"{what}: after {time.monotonic() - start:.1f} s", flush=True)
                return True
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.2)
    fail(f"{what}: not within {DEADLINE_S:.0f} s")
    return False


# ctest's timeout (SIGTERM) still stops the servers: SystemExit runs the `finally` below.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

try:
    # --- the textfiles --------------------------------------------------------------------------
    drift_text = audit(drift=True)
    if 'tenant_id="acme"' not in drift_text or "moonquota_reconcile_unexplained_within_tolerance" not in drift_text:
        fail("the reconcile textfile has no acme series")
    broken = os.path.join(work, "broken-store")
    shutil.copytree(os.path.join(source_dir, "snapshots/live-audit/store"), broken)
    root = os.path.join(broken, "mooncake_master_snapshot", "mooncake_cluster")
    for snap in os.listdir(root):
        if os.path.isdir(os.path.join(root, snap)):
            os.remove(os.path.join(root, snap, "task_manager"))
    rebuild_path = os.path.join(work, "rebuild.prom")
    run_tool(["quota-rebuild", "--store", broken, "--policy", "snapshots/live-audit/policy.yaml", "--cluster",
              "cell-a", "--format", "prom", "--output", rebuild_path], 1)
    rebuild_text = open(rebuild_path).read()
    if 'moonquota_rebuild_master_starts_empty{path="restore",cluster="cell-a"} 1' not in rebuild_text:
        fail("the rebuild textfile does not say the master starts EMPTY:\n" + rebuild_text)

    # The failover gauges of `oplog-inspect lag --format prom`: cluster prod-a's standby (43) has
    # applied the durable position (46) of 400 s ago, by the samples of its --db (saved inputs dated
    # with --sampled-at); cluster blind-cell is sampled without a standby.
    pw = os.path.join(source_dir, "snapshots/promote-worked")
    standby_prom = os.path.join(work, "standby.prom")
    open(standby_prom, "w").write("ha_oplog_applied_sequence_id 43\n")
    lag_path = os.path.join(work, "lag.prom")
    lag_db = os.path.join(work, "lag-db")
    for at in (1795953600000, 1795954000000):
        run_tool(["oplog-inspect", "lag", "--oplog-file", os.path.join(pw, "oplog.jsonl"), "--cluster-id", "prod-a",
                  "--standby-metrics", standby_prom, "--db", lag_db, "--sampled-at", str(at), "--format", "prom",
                  "--output", lag_path], 0)
    lag_text = open(lag_path).read()
    if 'moonquota_ha_window_seconds{window="catch_up",cluster="prod-a"} 400.000' not in lag_text:
        fail("the lag textfile has no 400 s catch-up age:\n" + lag_text)
    blind_path = os.path.join(work, "blind.prom")
    run_tool(["oplog-inspect", "lag", "--oplog-file", os.path.join(pw, "oplog.jsonl"), "--cluster-id", "prod-a",
              "--cluster", "blind-cell", "--format", "prom", "--output", blind_path], 0)
    lag_text += open(blind_path).read()

    # --- scrape target and Prometheus -----------------------------------------------------------
    www = os.path.join(work, "www")
    os.mkdir(www)
    publish(drift_text + rebuild_text + lag_text)
    file_port = free_port()
    procs.append(subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", www,
                                   str(file_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    targets = [(f"127.0.0.1:{file_port}", "/metrics.txt")]  # job moonquota-0
    if HAS_SERVE:
        serve_master_port = free_port()
        serve_master, serve_master_url = start_stand_in(["--drift", "acme=+4096"], serve_master_port)
        serve_port = free_port()
        serve_log = open(os.path.join(work, "serve.log"), "w")
        procs.append(subprocess.Popen(
            [os.path.join(tools_dir, "quota-reconcile"), "serve", "--store", "snapshots/live-audit/store", "--policy",
             "snapshots/live-audit/policy.yaml", "--master", serve_master_url, "--listen", f"127.0.0.1:{serve_port}",
             "--every", "1s", "--cluster", "serve-cell", "--db", os.path.join(work, "serve-db")],
            cwd=source_dir, stdout=serve_log, stderr=subprocess.STDOUT))
        targets.append((f"127.0.0.1:{serve_port}", "/metrics"))
    else:
        print("note: this quota-reconcile has no serve subcommand: only the one-shot textfile is scraped", flush=True)
    if os.environ.get("SCRAPE_TARGET"):
        targets.append((os.environ["SCRAPE_TARGET"], os.environ.get("SCRAPE_PATH", "/metrics")))
    rules = open(os.path.join(source_dir, "deploy/prometheus/moonquota-rules.yml")).read()
    rules = re.sub(r"(?m)^(\s+for:\s*)\S+\s*$", r"\g<1>1s", rules)
    rules_path = os.path.join(work, "rules.yml")
    open(rules_path, "w").write(rules)
    config = {"global": {"scrape_interval": "1s", "evaluation_interval": "1s", "scrape_timeout": "1s"},
              "rule_files": [rules_path],
              "scrape_configs": [{"job_name": f"moonquota-{i}", "metrics_path": path,
                                  "static_configs": [{"targets": [target]}]}
                                 for i, (target, path) in enumerate(targets)]}
    config_path = os.path.join(work, "prometheus.yml")
    json.dump(config, open(config_path, "w"))  # JSON is YAML
    prom_port = free_port()
    prom_log = open(os.path.join(work, "prometheus.log"), "w")
    procs.append(subprocess.Popen(["prometheus", f"--config.file={config_path}",
                                   f"--storage.tsdb.path={os.path.join(work, 'tsdb')}",
                                   f"--web.listen-address=127.0.0.1:{prom_port}", "--log.level=warn"],
                                  stdout=prom_log, stderr=subprocess.STDOUT))
    if not wait_for("prometheus ready", lambda: urllib.request.urlopen(
            f"http://127.0.0.1:{prom_port}/-/ready", timeout=5).status == 200):
        raise SystemExit(1)

    # --- the alerts fire ------------------------------------------------------------------------
    wait_for(f"MoonquotaDriftBeyondTolerance fires for acme in cluster {RECONCILE_CLUSTER!r}",
             lambda: firing("MoonquotaDriftBeyondTolerance", tenant_id="acme", cluster=RECONCILE_CLUSTER))
    wait_for("MoonquotaMasterWouldStartEmpty fires for cell-a on restore",
             lambda: firing("MoonquotaMasterWouldStartEmpty", cluster="cell-a", path="restore"))
    # The bundled store's snapshot is days old: the one-shot textfile's metadata age plus the time
    # since its run is far above the threshold.
    wait_for(f"MoonquotaSnapshotTooOld fires for cluster {RECONCILE_CLUSTER!r} (from the audit's metadata age)",
             lambda: firing("MoonquotaSnapshotTooOld", cluster=RECONCILE_CLUSTER))
    if HAS_SERVE:
        wait_for("MoonquotaDriftBeyondTolerance fires for acme in cluster 'serve-cell' (serve)",
                 lambda: firing("MoonquotaDriftBeyondTolerance", tenant_id="acme", cluster="serve-cell"))
        wait_for("serve /healthz answers 200", lambda: urllib.request.urlopen(
            f"http://127.0.0.1:{serve_port}/healthz", timeout=5).status == 200)
    wait_for("MoonquotaStandbyLagging fires for prod-a (400 s behind)",
             lambda: firing("MoonquotaStandbyLagging", cluster="prod-a"))
    wait_for("MoonquotaStandbyPositionUnknown fires for blind-cell (no standby read)",
             lambda: firing("MoonquotaStandbyPositionUnknown", cluster="blind-cell"))
    if firing("MoonquotaStandbyPositionUnknown", cluster="prod-a") or firing("MoonquotaStandbyLagging",
                                                                             cluster="blind-cell"):
        fail("a failover alert fires for the wrong cluster")
    others = [a["labels"]["tenant_id"] for a in firing("MoonquotaDriftBeyondTolerance")]
    if set(others) != {"acme"}:
        fail(f"MoonquotaDriftBeyondTolerance fires for {others}, expected only acme")
    alert = firing("MoonquotaDriftBeyondTolerance", tenant_id="acme")
    if alert and "acme" not in alert[0]["annotations"].get("summary", ""):
        fail(f"the drift alert's summary does not name the tenant: {alert[0]['annotations']}")
    groups = api("/api/v1/rules")["data"]["groups"]
    unhealthy = [(r["name"], r.get("lastError")) for g in groups for r in g["rules"] if r["health"] != "ok"]
    count = sum(len(g["rules"]) for g in groups)
    if unhealthy or count == 0:
        fail(f"rules not healthy: {unhealthy} ({count} rules)")
    else:
        print(f"{count} rules loaded, all healthy", flush=True)

    # --- the drift resolves ---------------------------------------------------------------------
    publish(audit(drift=False) + rebuild_text + lag_text)
    wait_for("MoonquotaDriftBeyondTolerance resolves",
             lambda: not firing("MoonquotaDriftBeyondTolerance", cluster=RECONCILE_CLUSTER) and api(
                 "/api/v1/query", {"query": 'moonquota_reconcile_delta_bytes{tenant_id="acme",job="moonquota-0"}'})
             ["data"]["result"][0]["value"][1] == "0")

    if HAS_SERVE:
        stop(serve_master)
        start_stand_in([], serve_master_port)
        wait_for("MoonquotaDriftBeyondTolerance resolves for serve-cell",
                 lambda: not firing("MoonquotaDriftBeyondTolerance", cluster="serve-cell"))

    # --- the dashboard's queries ----------------------------------------------------------------
    dashboard = json.load(open(os.path.join(source_dir, "deploy/grafana/moonquota-dashboard.json")))

    def grafana_vars(expr):
        return expr.replace("$cluster", ".*").replace("$tenant", ".*").replace("$__rate_interval", "1m")

    queries = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    with_data = 0
    for q in queries:
        answer = api("/api/v1/query", {"query": grafana_vars(q)})
        if answer.get("status") != "success":
            fail(f"dashboard query {q!r}: {answer.get('errorType')}: {answer.get('error')}")
        elif answer["data"]["result"]:
            with_data += 1
    for v in dashboard["templating"]["list"]:
        if v["type"] != "query":
            continue
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", v["definition"])
        if not m:
            fail(f"variable {v['name']}: not label_values(SELECTOR, LABEL): {v['definition']}")
            continue
        answer = api(f"/api/v1/label/{m.group(2)}/values", {"match[]": grafana_vars(m.group(1))})
        if answer.get("status") != "success":
            fail(f"variable {v['name']}: {answer.get('error')}")
        else:
            queries.append(v["definition"])
    print(f"{len(queries)} dashboard queries succeeded ({with_data} panel queries returned series)", flush=True)
    if with_data < len(dashboard["panels"]) // 2:
        fail(f"only {with_data} dashboard queries returned data")
finally:
    cleanup()

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
