#!/usr/bin/env python3
"""deploy.ci_examples: the CI examples of deploy/ci run as far as they can without Mooncake.

github-actions.yml (steps) and gitlab-ci.yml (jobs) name what they need: "master:..." needs a
Mooncake build and is not run here (its shell is only syntax-checked with bash -n);
"moonquota:..." steps and golden:check's before_script install moonquota: checked against this
source tree (the cmake options exist, the scripts exist, the package name is cpack's); the other
steps/jobs ("golden:...") are the check: each of their shell lines must be a snapshot-golden
command, and they run as written with the built tools first on PATH, in a folder where fixtures/
is a copy of snapshots/ (the repository's fixture set of 12). They must succeed and write the
--junit report, which must list every fixture with no failure and be the file the publisher
(GitHub: a JUnit action run even after a failed step; GitLab: artifacts:reports:junit, kept
`when: always`) reads. Then one fixture's expected.json is edited: the same lines must fail (a
failing check fails the CI step) and still write the report, with that failure in it.

Usage: ci_examples.py TOOLS_DIR SOURCE_DIR [CI_DIR]   (CI_DIR: deploy/ci of SOURCE_DIR by default)
Prints one FAIL line per problem and exits 1 when there is one.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

failures = 0


def fail(msg):
    global failures
    print(f"FAIL: {msg}")
    failures += 1


PREFIXES = ("master:", "moonquota:", "golden:")
JUNIT_ACTIONS = {  # action -> the input naming the report files
    "mikepenz/action-junit-report": "report_paths",
    "dorny/test-reporter": "path",
    "EnricoMi/publish-unit-test-result-action": "files",
}


def shell_lines(script):
    """The commands of a shell script: continuation lines joined, comments and blanks dropped."""
    text = re.sub(r"\\\n\s*", " ", script)
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def bash_syntax(label, script):
    r = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        fail(f"{label}: bash -n: {r.stderr.strip()}")


def junit_of(lines, label):
    """The --junit FILE of the snapshot-golden lines (one, the same everywhere)."""
    files = set()
    for line in lines:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
        if words[:1] != ["snapshot-golden"] or any(w and set(w) <= set("|&;()<>") for w in words):
            fail(f"{label}: not one plain snapshot-golden command: {line}")
            continue
        for i, w in enumerate(words):
            if w == "--junit" and i + 1 < len(words):
                files.add(words[i + 1])
            elif w.startswith("--junit="):
                files.add(w.split("=", 1)[1])
    if len(files) != 1:
        fail(f"{label}: expected one --junit FILE among the snapshot-golden lines, found {sorted(files)}")
        return None
    return files.pop()


class Checker:
    def __init__(self, tools_dir, source_dir):
        self.tools_dir = os.path.abspath(tools_dir)
        self.source_dir = os.path.abspath(source_dir)
        self.options = set()
        for root, dirs, files in os.walk(self.source_dir):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and d != "node_modules"]
            for f in files:
                if f == "CMakeLists.txt" or f.endswith(".cmake"):
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        self.options.update(re.findall(r"option\(\s*(MOONQUOTA_\w+)", fh.read()))
        with open(os.path.join(self.source_dir, "cmake", "Install.cmake"), encoding="utf-8") as fh:
            m = re.search(r"set\(CPACK_PACKAGE_NAME\s+(\S+)\)", fh.read())
        self.package = m.group(1) if m else None
        # The fixture count of snapshots/, as the tool sees it.
        r = subprocess.run([os.path.join(self.tools_dir, "snapshot-golden"), "check", "--format", "json",
                            os.path.join(self.source_dir, "snapshots")], capture_output=True, text=True)
        self.fixtures = json.loads(r.stdout)["counts"]["fixtures"] if r.returncode == 0 else None
        if self.fixtures is None:
            fail(f"snapshot-golden check snapshots exits {r.returncode}: {r.stderr.strip()[:300]}")

    def check_install(self, label, script):
        """moonquota's install lines against this tree."""
        for opt in re.findall(r"-D(MOONQUOTA_\w+)=", script):
            if opt not in self.options:
                fail(f"{label}: -D{opt}: no option({opt} ...) in the CMake files")
        for path in re.findall(r"\bmoonquota/(scripts/[\w./-]+)", script):
            if not os.path.isfile(os.path.join(self.source_dir, path)):
                fail(f"{label}: moonquota/{path}: no such file in the source tree")
        if "setup.sh --tools" in script:
            with open(os.path.join(self.source_dir, "scripts", "setup.sh"), encoding="utf-8") as fh:
                if "--tools)" not in fh.read():
                    fail(f"{label}: scripts/setup.sh has no --tools mode")
        debs = re.findall(r"\./moonquota/build/(\w+)_\*\.deb", script)
        if "cpack -G DEB" not in script or not debs:
            fail(f"{label}: does not build (cpack -G DEB) and install ./moonquota/build/<name>_*.deb")
        for name in debs:
            if name != self.package:
                fail(f"{label}: installs {name}_*.deb, cpack names the package {self.package}")

    def run_golden(self, label, lines, junit):
        """Runs the lines in a fresh folder, on a clean and on a drifted copy of snapshots/."""
        if junit is None or self.fixtures is None:
            return
        script = "\n".join(lines) + "\n"
        env = dict(os.environ, PATH=self.tools_dir + os.pathsep + os.environ.get("PATH", ""))
        with tempfile.TemporaryDirectory() as work:
            shutil.copytree(os.path.join(self.source_dir, "snapshots"), os.path.join(work, "fixtures"), symlinks=True)

            def run(case):
                report = os.path.join(work, junit)
                if os.path.exists(report):
                    os.remove(report)
                r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=work,
                                   env=env, capture_output=True, text=True)
                print(f"{label} ({case}): exit {r.returncode}; last line: {(r.stdout.strip().splitlines() or [''])[-1]}")
                suites = None
                if not os.path.isfile(report):
                    fail(f"{label} ({case}): no {junit} written (stderr: {r.stderr.strip()[:300]})")
                else:
                    try:
                        suites = ET.parse(report).getroot()
                    except ET.ParseError as e:
                        fail(f"{label} ({case}): {junit} is not XML: {e}")
                return r, suites

            r, root = run("clean fixtures")
            if r.returncode != 0:
                fail(f"{label}: exit {r.returncode} on the clean fixtures: {(r.stdout + r.stderr).strip()[:400]}")
            if root is not None:
                cases = root.findall(".//testcase")
                if (root.get("tests"), len(cases)) != (str(self.fixtures), self.fixtures):
                    fail(f"{label}: {junit} lists {root.get('tests')} tests, {len(cases)} testcases; "
                         f"expected {self.fixtures}")
                if (root.get("failures"), root.get("errors")) != ("0", "0"):
                    fail(f"{label}: {junit} on the clean fixtures: failures {root.get('failures')}, "
                         f"errors {root.get('errors')}")

            expected = os.path.join(work, "fixtures", "sample", "expected.json")
            with open(expected, encoding="utf-8") as fh:
                table = json.load(fh)
            table["tenants"][0]["charged_bytes"] += 1
            with open(expected, "w", encoding="utf-8") as fh:
                json.dump(table, fh, indent=2)
            r, root = run("sample drifted")
            if r.returncode == 0:
                fail(f"{label}: exit 0 with a drifted fixture: a failing check must fail the CI step")
            if root is not None:
                failed = [c.get("name") for c in root.findall(".//testcase") if c.find("failure") is not None]
                if failed != ["sample"]:
                    fail(f"{label}: {junit} with sample drifted names the failing testcases {failed}")
            if "--format github" in script and not re.search(r"^::error .*title=[^:]*sample::", r.stdout, re.M):
                fail(f"{label}: --format github printed no ::error annotation for sample")


def check_github(checker, path):
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    # YAML 1.1 reads the key `on` as true.
    if not isinstance(doc, dict) or not (doc.get("on") or doc.get(True)):
        fail(f"{path}: no `on:` triggers")
        return
    perms = doc.get("permissions") or {}
    jobs = doc.get("jobs") or {}
    if not jobs:
        fail(f"{path}: no jobs")
    for job_name, job in jobs.items():
        steps = job.get("steps") or []
        golden_lines, check_index, publishers = [], None, []
        master_steps = 0
        for i, step in enumerate(steps):
            name = step.get("name")
            label = f"github {job_name}: step {i} ({name})"
            if not isinstance(name, str) or not name.startswith(PREFIXES):
                fail(f"{label}: the name does not start with one of {', '.join(PREFIXES)}")
                continue
            if ("run" in step) == ("uses" in step):
                fail(f"{label}: needs exactly one of run: and uses:")
                continue
            if "run" in step:
                bash_syntax(label, step["run"])
            if name.startswith("master:"):
                master_steps += 1
                print(f"skipped (needs Mooncake): {label}")
                continue
            if name.startswith("moonquota:"):
                if "run" in step:
                    checker.check_install(label, step["run"])
                continue
            if "run" in step:
                golden_lines += shell_lines(step["run"])
                check_index = i
            else:
                action = step["uses"].split("@")[0]
                if action in JUNIT_ACTIONS:
                    publishers.append((i, step, JUNIT_ACTIONS[action]))
        if not master_steps:
            fail(f"github {job_name}: no master: step (restoring the fixtures and writing master.json)")
        if not golden_lines:
            fail(f"github {job_name}: no golden: step runs snapshot-golden")
            continue
        junit = junit_of(golden_lines, f"github {job_name}")
        if not publishers:
            fail(f"github {job_name}: no step publishes the JUnit report ({', '.join(JUNIT_ACTIONS)})")
        for i, step, key in publishers:
            cond = str(step.get("if", ""))
            if "always()" not in cond and "!cancelled()" not in cond:
                fail(f"github {job_name}: step {i} ({step['name']}) does not run after a failed check: if: {cond!r}")
            if i < (check_index or 0):
                fail(f"github {job_name}: step {i} ({step['name']}) publishes before the check runs")
            paths = str((step.get("with") or {}).get(key, "")).split()
            if junit not in paths:
                fail(f"github {job_name}: step {i} ({step['name']}) reads {key}: {paths}, the check writes {junit}")
            if perms.get("checks") != "write" and "mikepenz/" in step["uses"]:
                fail(f"github: {step['uses']} creates a check run: permissions needs checks: write")
        checker.run_golden(f"github {job_name}", golden_lines, junit)


GITLAB_RESERVED = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache",
                   "before_script", "after_script"}


def as_script(value):
    return "\n".join(value) if isinstance(value, list) else str(value or "")


def check_gitlab(checker, path):
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    if not isinstance(doc, dict):
        fail(f"{path}: not a mapping")
        return
    stages = doc.get("stages") or ["build", "test", "deploy"]
    jobs = {k: v for k, v in doc.items() if k not in GITLAB_RESERVED and isinstance(v, dict) and "script" in v
            and not str(k).startswith(".")}
    if not any(str(k).startswith("master:") for k in jobs):
        fail("gitlab: no master: job (restoring the fixtures and writing master.json)")
    golden_jobs = 0
    for name, job in jobs.items():
        label = f"gitlab {name}"
        if job.get("stage", "test") not in stages:
            fail(f"{label}: stage {job.get('stage')!r} is not in stages {stages}")
        for need in job.get("needs") or []:
            needed = need.get("job") if isinstance(need, dict) else need
            if needed not in jobs:
                fail(f"{label}: needs {needed!r}, no such job")
        for part in ("before_script", "script", "after_script"):
            if part in job:
                bash_syntax(f"{label} {part}", as_script(job[part]))
        if str(name).startswith("master:"):
            print(f"skipped (needs Mooncake): {label}")
            continue
        if not str(name).startswith(PREFIXES):
            fail(f"{label}: the name does not start with one of {', '.join(PREFIXES)}")
            continue
        golden_jobs += 1
        if "before_script" in job:
            checker.check_install(f"{label} before_script", as_script(job["before_script"]))
        lines = shell_lines(as_script(job["script"]))
        junit = junit_of(lines, label)
        artifacts = job.get("artifacts") or {}
        if (artifacts.get("reports") or {}).get("junit") != junit:
            fail(f"{label}: artifacts:reports:junit is {(artifacts.get('reports') or {}).get('junit')!r}, "
                 f"the check writes {junit}")
        if artifacts.get("when") != "always":
            fail(f"{label}: artifacts:when is {artifacts.get('when')!r}: the report of a failed check is lost "
                 "(needs always)")
        checker.run_golden(label, lines, junit)
    if not golden_jobs:
        fail("gitlab: no job runs snapshot-golden")


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    tools_dir, source_dir = sys.argv[1], sys.argv[2]
    ci_dir = sys.argv[3] if len(sys.argv) == 4 else os.path.join(source_dir, "deploy", "ci")
    checker = Checker(tools_dir, source_dir)
    check_github(checker, os.path.join(ci_dir, "github-actions.yml"))
    check_gitlab(checker, os.path.join(ci_dir, "gitlab-ci.yml"))
    if failures:
        print(f"{failures} failure(s)")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
