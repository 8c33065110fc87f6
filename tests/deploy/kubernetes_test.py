"""deploy.kubernetes: checks the manifests of deploy/kubernetes.

- every document parses and has apiVersion, kind and metadata.name, of a kind we expect;
- ConfigMap and Secret references (envFrom, volumes, items' keys) and $(VAR) references in args
  resolve to the ConfigMap (Secrets are the operator's: only their names are listed);
- every container has an image and a command or args, resources and a securityContext that
  drops privileges; the moonquota containers' flags are flags the tools accept (tool_flags.py);
- the serve container's probes GET /healthz on the port its --listen names, and the Service's
  targetPort is that port, with a selector that matches the Deployment's pod labels;
- the CronJob schedule is a valid five-field cron expression;
- the ConfigMap's policy.yaml is a policy quota-rebuild loads;
- prometheus-scrape-config.yaml (not a Kubernetes object) passes `promtool check config` when
  promtool is there.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(__file__))
from tool_flags import check_args  # noqa: E402

tools_dir, source_dir = sys.argv[1], sys.argv[2]
k8s_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(source_dir, "deploy/kubernetes")
TOOLS = {"quota-rebuild", "quota-reconcile", "snapshot-inspect", "oplog-inspect"}
KINDS = {"ConfigMap", "PersistentVolumeClaim", "Deployment", "Service", "CronJob"}
failures = []


def fail(message):
    print("FAIL: " + message)
    failures.append(message)


objects = []
for path in sorted(glob.glob(os.path.join(k8s_dir, "*.yaml"))):
    if os.path.basename(path) == "prometheus-scrape-config.yaml":
        continue
    for doc in yaml.safe_load_all(open(path)):
        if doc is None:
            continue
        where = f"{os.path.basename(path)}: {doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
        for key in ("apiVersion", "kind"):
            if not doc.get(key):
                fail(f"{where}: no {key}")
        if not (doc.get("metadata") or {}).get("name"):
            fail(f"{where}: no metadata.name")
        if doc.get("kind") not in KINDS:
            fail(f"{where}: unexpected kind")
        objects.append((where, doc))

configmaps = {d["metadata"]["name"]: d.get("data", {}) for _, d in objects if d["kind"] == "ConfigMap"}
claims = {d["metadata"]["name"] for _, d in objects if d["kind"] == "PersistentVolumeClaim"}
for kind in ("ConfigMap", "Deployment", "Service", "CronJob"):
    if not any(d["kind"] == kind for _, d in objects):
        fail(f"no {kind} among the manifests")

CRON_RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]


def cron_valid(expr):
    fields = expr.split()
    if len(fields) != 5:
        return False
    for field, (lo, hi) in zip(fields, CRON_RANGES):
        for part in field.split(","):
            m = re.fullmatch(r"(\*|(\d+)(?:-(\d+))?)(?:/(\d+))?", part)
            if not m:
                return False
            a, b, step = m.group(2), m.group(3), m.group(4)
            if a is not None and not (lo <= int(a) <= hi and (b is None or int(a) <= int(b) <= hi)):
                return False
            if step is not None and int(step) == 0:
                return False
    return True


def expand(arg, env):
    def sub(m):
        if m.group(1) not in env:
            fail(f"$({m.group(1)}) is not defined by the ConfigMap")
            return m.group(0)
        return env[m.group(1)]
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", sub, arg)


def check_pod(where, pod, labels):
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for v in volumes.values():
        if "configMap" in v:
            name = v["configMap"]["name"]
            if name not in configmaps:
                fail(f"{where}: volume {v['name']}: no ConfigMap {name}")
            for item in v["configMap"].get("items", []):
                if item["key"] not in configmaps.get(name, {}):
                    fail(f"{where}: volume {v['name']}: ConfigMap {name} has no key {item['key']}")
        if "persistentVolumeClaim" in v and v["persistentVolumeClaim"]["claimName"] not in claims:
            fail(f"{where}: volume {v['name']}: no PersistentVolumeClaim {v['persistentVolumeClaim']['claimName']}")
    if not pod.get("securityContext", {}).get("runAsNonRoot"):
        fail(f"{where}: the pod does not set runAsNonRoot")
    listen_ports = []
    for c in pod.get("initContainers", []) + pod.get("containers", []):
        cw = f"{where}: container {c.get('name')}"
        if not c.get("image"):
            fail(f"{cw}: no image")
        if not c.get("command") and not c.get("args"):
            fail(f"{cw}: neither command nor args")
        if not c.get("resources", {}).get("limits") or not c.get("resources", {}).get("requests"):
            fail(f"{cw}: no resource requests and limits")
        sc = c.get("securityContext", {})
        if sc.get("allowPrivilegeEscalation") is not False or "ALL" not in sc.get("capabilities", {}).get("drop", []):
            fail(f"{cw}: securityContext does not forbid privilege escalation and drop ALL capabilities")
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                fail(f"{cw}: mount of an undefined volume {m['name']}")
        env = {}
        for ref in c.get("envFrom", []):
            if "configMapRef" in ref:
                name = ref["configMapRef"]["name"]
                if name not in configmaps:
                    fail(f"{cw}: envFrom: no ConfigMap {name}")
                env.update({k: str(v) for k, v in configmaps.get(name, {}).items()})
        command = c.get("command", [])
        tool = next((w for w in command if os.path.basename(w) in TOOLS), None)
        if tool is None:
            continue
        args = [expand(str(a), env) for a in c.get("args", [])]
        problems, notes = check_args(tools_dir, os.path.basename(tool), args)
        for p in problems:
            fail(f"{cw}: {p}")
        for n in notes:
            print(f"note: {cw}: {n}")
        if "--listen" in args:
            port = int(args[args.index("--listen") + 1].rsplit(":", 1)[1])
            ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
            if port not in ports.values():
                fail(f"{cw}: --listen port {port} is not a containerPort")
            listen_ports.append((port, ports))
            for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
                if probe == "startupProbe" and probe not in c:
                    continue
                get = c.get(probe, {}).get("httpGet")
                if not get or get.get("path") != "/healthz":
                    fail(f"{cw}: {probe} is not an HTTP GET of /healthz")
                    continue
                p = ports.get(get["port"], get["port"])
                if p != port:
                    fail(f"{cw}: {probe} probes port {get['port']}, --listen is {port}")
            print(f"{cw}: serves on {port}, probes /healthz there")
    return listen_ports


deployments = []
for where, d in objects:
    if d["kind"] == "Deployment":
        template = d["spec"]["template"]
        labels = template["metadata"].get("labels", {})
        selector = d["spec"]["selector"]["matchLabels"]
        if any(labels.get(k) != v for k, v in selector.items()):
            fail(f"{where}: selector {selector} does not match the pod labels {labels}")
        deployments.append((labels, check_pod(where, template["spec"], labels), template["spec"]))
    elif d["kind"] == "CronJob":
        if not cron_valid(str(d["spec"].get("schedule", ""))):
            fail(f"{where}: schedule {d['spec'].get('schedule')!r} is not a five-field cron expression")
        template = d["spec"]["jobTemplate"]["spec"]["template"]
        if template["spec"].get("restartPolicy") not in ("Never", "OnFailure"):
            fail(f"{where}: a Job's pods need restartPolicy Never or OnFailure")
        check_pod(where, template["spec"], template["metadata"].get("labels", {}))

for where, d in objects:
    if d["kind"] != "Service":
        continue
    selector = d["spec"].get("selector", {})
    matched = [dep for dep in deployments if all(dep[0].get(k) == v for k, v in selector.items())]
    if not matched:
        fail(f"{where}: its selector {selector} matches no Deployment")
        continue
    for port in d["spec"]["ports"]:
        target = port.get("targetPort", port["port"])
        containers = matched[0][2]["containers"]
        names = {p.get("name"): p["containerPort"] for c in containers for p in c.get("ports", [])}
        resolved = names.get(target, target)
        if resolved not in names.values():
            fail(f"{where}: targetPort {target} is no container port of the Deployment")

# The policy in each ConfigMap is one quota-rebuild loads.
for name, data in configmaps.items():
    if "policy.yaml" not in data:
        continue
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(data["policy.yaml"])
    r = subprocess.run([os.path.join(tools_dir, "quota-rebuild"), "--store", "snapshots/sample/store", "--policy",
                        f.name, "--restore-time", "0"], cwd=source_dir, capture_output=True, text=True)
    os.unlink(f.name)
    if r.returncode != 0 or "policy:" in r.stderr:
        fail(f"ConfigMap {name}: quota-rebuild does not load its policy.yaml cleanly (exit {r.returncode}): "
             f"{r.stderr.strip()}")

scrape = os.path.join(k8s_dir, "prometheus-scrape-config.yaml")
if subprocess.run(["sh", "-c", "command -v promtool"], capture_output=True).returncode == 0:
    # Debian's prometheus is built without the Kubernetes service discovery: promtool checks a copy
    # whose kubernetes_sd_configs are replaced by static targets (the relabelling is still checked).
    config = yaml.safe_load(open(scrape))
    for job in config["scrape_configs"]:
        if job.pop("kubernetes_sd_configs", None) is not None:
            job["static_configs"] = [{"targets": ["127.0.0.1:9464"]}]
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        yaml.safe_dump(config, f)
    r = subprocess.run(["promtool", "check", "config", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if r.returncode != 0:
        fail(f"promtool check config {scrape} (kubernetes_sd as static): {r.stdout}{r.stderr}")
elif os.environ.get("CI") == "true":
    fail("promtool missing")

print(f"{len(objects)} objects checked")
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
