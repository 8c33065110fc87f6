"""Part of deploy.systemd: each unit's ExecStart, with the variables of its EnvironmentFile taken
from the example beside it (reconcile.env for /etc/moonquota/reconcile.env), gives its tool only
flags the tool accepts (tool_flags.py); every variable it uses is set by that example."""
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tool_flags import check_args  # noqa: E402

tools_dir, units_dir = sys.argv[1], sys.argv[2]
failures = 0
for name in sorted(os.listdir(units_dir)):
    if not name.endswith(".service"):
        continue
    text = open(os.path.join(units_dir, name)).read()
    env_file = re.search(r"^EnvironmentFile=-?(\S+)", text, re.M)
    exec_start = re.search(r"^ExecStart=(.*)$", text, re.M).group(1)
    env = {}
    if env_file:
        example = os.path.join(units_dir, os.path.basename(env_file.group(1)))
        if not os.path.exists(example):
            print(f"FAIL: {name}: no example {os.path.basename(example)} for {env_file.group(1)}")
            failures += 1
            continue
        for line in open(example):
            line = line.strip()
            if line and not line.startswith("#"):
                key, value = line.split("=", 1)
                env[key] = value
    words = []
    for word in shlex.split(exec_start):
        # systemd: ${VAR} is one word, a lone $VAR is split at whitespace.
        lone = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", word)
        if lone:
            if lone.group(1) not in env:
                print(f"FAIL: {name}: ${lone.group(1)} is not set by the example environment file")
                failures += 1
            words.extend(env.get(lone.group(1), "").split())
            continue

        def sub(m):
            global failures
            if m.group(1) not in env:
                print(f"FAIL: {name}: ${{{m.group(1)}}} is not set by the example environment file")
                failures += 1
            return env.get(m.group(1), "")
        words.append(re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", sub, word))
    tool = os.path.basename(words[0])
    problems, notes = check_args(tools_dir, tool, words[1:])
    for p in problems:
        print(f"FAIL: {name}: {p}")
        failures += 1
    for n in notes:
        print(f"note: {name}: {n}")
    print(f"{name}: {tool} {' '.join(words[1:])}")
sys.exit(1 if failures else 0)
