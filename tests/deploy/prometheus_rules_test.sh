#!/usr/bin/env bash
# deploy.prometheus_rules: deploy/prometheus/moonquota-rules.yml passes `promtool check rules`, its
# unit tests (deploy/prometheus/tests/*.yml) pass `promtool test rules`, and every alert of the
# file is tested both firing and not firing.
# Usage: prometheus_rules_test.sh SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/common.sh"
source_dir="$1"
require_program promtool prometheus
require_program python3 python3
cd "$source_dir/deploy/prometheus" || exit 1

promtool check rules moonquota-rules.yml || fail "promtool check rules"
promtool test rules tests/*.yml || fail "promtool test rules"

# Coverage: for each alert, a test expecting it (non-empty exp_alerts) and one expecting none.
python3 - moonquota-rules.yml tests/*.yml <<'PY' || fail "an alert is not tested both ways"
import sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
alerts = {r["alert"] for g in rules["groups"] for r in g["rules"] if "alert" in r}
fired, quiet = set(), set()
for path in sys.argv[2:]:
    for test in yaml.safe_load(open(path)).get("tests", []):
        for case in test.get("alert_rule_test", []):
            (fired if case.get("exp_alerts") else quiet).add(case["alertname"])
bad = 0
for a in sorted(alerts):
    for what, seen in (("firing", fired), ("not firing", quiet)):
        if a not in seen:
            print(f"{a}: no test expects it {what}")
            bad = 1
    # every alert has a severity and the two annotations
for g in rules["groups"]:
    for r in g["rules"]:
        if "alert" not in r:
            continue
        if r.get("labels", {}).get("severity") not in ("critical", "warning"):
            print(f"{r['alert']}: severity label missing"); bad = 1
        for key in ("summary", "description"):
            if "cluster" not in r.get("annotations", {}).get(key, ""):
                print(f"{r['alert']}: annotation {key} does not name the cluster"); bad = 1
print(f"{len(alerts)} alerts, each tested firing and not firing" if not bad else "")
sys.exit(bad)
PY
# The unit tests are tight: each mutation below (a `for` one step shorter, a threshold one step
# lower, a comparison loosened) must make them fail.
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir "$work/tests" && cp tests/*.yml "$work/tests/"
python3 - moonquota-rules.yml "$work" <<'PY' || fail "a mutation of the rules was not caught"
import copy, subprocess, sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
work = sys.argv[2]
mutations = [
    ("MoonquotaLeakPersistent", "for", "5m", "4m"),
    ("MoonquotaLeakPersistent", "expr", "moonquota_reconcile_unexplained_bytes > 0", "moonquota_reconcile_unexplained_bytes >= 0"),
    ("MoonquotaDriftBeyondTolerance", "for", "15m", "14m"),
    ("MoonquotaAuditFailing", "for", "10m", "9m"),
    ("MoonquotaAuditStale", "expr", "> 3 * 300", "> 3 * 299"),
    ("MoonquotaAuditStale", "expr", "> 3 * 900", "> 3 * 899"),
    ("MoonquotaMasterWouldStartEmpty", "expr", "== 1", ">= 0"),
    ("MoonquotaSnapshotTooOld", "expr", "> 1500", "> 1499"),
    ("MoonquotaSnapshotTooOld", "for", "5m", "4m"),
    ("MoonquotaStandbyLagging", "for", "10m", "9m"),
    ("MoonquotaStandbyLagging", "expr", "> 10000", "> 9999"),
    ("MoonquotaStandbyLagging", "expr", "> 300", "> 299"),
    ("MoonquotaStandbyPositionUnknown", "for", "15m", "14m"),
    ("MoonquotaStandbyPositionUnknown", "expr", "== 1", ">= 0"),
    ("MoonquotaDurablePrefixStalled", "expr", "offset 15m", "offset 14m"),
    ("MoonquotaDurablePrefixStalled", "expr", "[15m])) > 0)\n  or", "[15m])) >= 0)\n  or"),
    ("MoonquotaSnapshotGapTooLarge", "for", "30m", "29m"),
    ("MoonquotaSnapshotGapTooLarge", "expr", "> 1000000", "> 999999"),
    ("MoonquotaSnapshotGapTooLarge", "expr", "{position=\"snapshot\"} > 0", "{position=\"snapshot\"} >= 0"),
    ("MoonquotaHaSamplingFailing", "for", "10m", "9m"),
]
bad = 0
for alert, field, old, new in mutations:
    mutated = copy.deepcopy(rules)
    hits = 0
    for g in mutated["groups"]:
        for r in g["rules"]:
            if r.get("alert") == alert and old in str(r.get(field, "")):
                r[field] = str(r[field]).replace(old, new)
                hits += 1
    if hits != 1:
        print(f"mutation {alert} {field} {old!r}: applies to {hits} rules, expected 1"); bad = 1; continue
    yaml.safe_dump(mutated, open(f"{work}/moonquota-rules.yml", "w"), sort_keys=False)
    r = subprocess.run(["promtool", "test", "rules"] + [f"{work}/tests/{t}" for t in
                       ("audit.yml", "leak_drift.yml", "rebuild_snapshot.yml", "ha_lag.yml")],
                       capture_output=True, text=True)
    if r.returncode == 0:
        print(f"mutation {alert} {field}: {old!r} -> {new!r} passes the unit tests"); bad = 1
    else:
        print(f"mutation {alert} {field}: {old!r} -> {new!r} caught")
sys.exit(bad)
PY
finish
