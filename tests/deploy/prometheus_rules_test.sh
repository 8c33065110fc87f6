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
finish
