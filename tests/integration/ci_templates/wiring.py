#!/usr/bin/env python3
"""How the action's inputs travel: workflow `with:` -> action input -> `env:` of the scan step
-> scripts/run.sh -> the -Pflakescan.* arguments of Gradle. action-validator checks each file
against GitHub's schema but not this: it cannot see that a workflow passes an input the action
does not declare (GitHub only warns, and the value is lost), or that an input never reaches the
script. Prints one "ok - ..." or "FAIL - ..." line per check (validate.sh counts them).

usage: wiring.py TEMPLATES_DIR WORK_DIR
"""
import os
import re
import stat
import subprocess
import sys

import yaml

templates, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
action_dir = os.path.join(templates, "action")
ACTION_USE = re.compile(r"^flakescan/flakescan/ci-templates/action@")
RUN_ID = "9876543210"  # what ${{ github.run_id }} stands for here (larger than a 32-bit int)


def check(ok, what):
    print(("ok   - " if ok else "FAIL - ") + what)
    return ok


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


action_text = open(os.path.join(action_dir, "action.yml")).read()
action = load(os.path.join(action_dir, "action.yml"))
inputs = action.get("inputs", {})
steps = action["runs"]["steps"]
scan_step = next((s for s in steps if s.get("id") == "scan"), None)
if not check(scan_step is not None, "action.yml has the scan step (id: scan)"):
    sys.exit(0)
run_sh = open(os.path.join(action_dir, "scripts", "run.sh")).read()

# 1. The action: every input is declared, used, and the scan script's are passed through env:.
used = set(re.findall(r"\binputs\.([A-Za-z0-9_-]+)", action_text))
check(used <= set(inputs), "action.yml uses only declared inputs (undeclared: %s)" % sorted(used - set(inputs)))
check(set(inputs) <= used, "every declared input is used in action.yml (unused: %s)" % sorted(set(inputs) - used))
env = scan_step.get("env", {})
script_vars = sorted(set(re.findall(r"\b(INPUT_[A-Z0-9_]+)", run_sh)))
for var in script_vars:
    name = var[len("INPUT_"):].lower().replace("_", "-")
    check(env.get(var) == "${{ inputs.%s }}" % name,
          "scan step env: %s = ${{ inputs.%s }} (found %r)" % (var, name, env.get(var)))
for name, prop in (("seed", "seed"), ("shuffle-seeds", "shuffleSeeds"), ("shuffle-mode", "shuffleMode"),
                   ("shuffle-rounds", "shuffleRounds"), ("thread-strategy", "threadStrategy"),
                   ("thread-schedules", "threadSchedules"), ("bug-depth", "bugDepth"), ("virtual-time", "virtualTime"),
                   ("thread-max-steps", "threadMaxSteps"), ("thread-include", "threadInclude")):
    check(name in inputs and inputs[name].get("default", "") == "",
          "input %s is declared, empty by default (the plugin's default)" % name)
    var = "INPUT_" + name.upper().replace("-", "_")
    check(re.search(r'"-Pflakescan\.%s=\$%s"' % (prop, var), run_sh) is not None,
          "run.sh passes %s as -Pflakescan.%s" % (var, prop))
tech_doc = inputs.get("techniques", {}).get("description", "")
check(all(re.search(r"\b%s\b" % t, tech_doc) for t in ("suite", "shuffle", "threads")),
      "the techniques input documents suite, shuffle and threads")


# 2. run.sh, as the scan step runs it, with a stand-in ./gradlew that records its arguments.
project = os.path.join(work, "wiring-project")
os.makedirs(project, exist_ok=True)
args_file = os.path.join(work, "wiring-gradle-args.txt")
gradlew = os.path.join(project, "gradlew")
with open(gradlew, "w") as f:
    f.write('#!/usr/bin/env bash\nprintf "%%s\\n" "$@" >"%s"\n' % args_file)
os.chmod(gradlew, os.stat(gradlew).st_mode | stat.S_IXUSR)

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def gradle_args(with_values):
    """The Gradle arguments run.sh gives for a use of the action with these `with:` values."""
    values = {k: str(v.get("default", "")) for k, v in inputs.items()}
    for k, v in (with_values or {}).items():
        values[k] = EXPR.sub(lambda m: RUN_ID if m.group(1) == "github.run_id"
                             else "2" if m.group(1) == "matrix.shard" else "com.example.ChangedTest", str(v))
    step_env = {}
    for var, expr in env.items():
        m = EXPR.fullmatch(str(expr))
        if m and m.group(1).startswith("inputs."):
            step_env[var] = values[m.group(1)[len("inputs."):]]
    step_env["ACTION_PATH"] = action_dir
    step_env["INPUT_WORKING_DIRECTORY"] = "."  # the stand-in project
    if os.path.exists(args_file):
        os.remove(args_file)
    r = subprocess.run(["bash", os.path.join(action_dir, "scripts", "run.sh")], cwd=project,
                       env=dict(os.environ, **step_env), capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(args_file):
        print("# run.sh: exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()))
        return None
    return open(args_file).read().splitlines()


args = gradle_args({})
check(args is not None and not any(a.startswith(("-Pflakescan.seed=", "-Pflakescan.shuffle", "-Pflakescan.thread",
                                                  "-Pflakescan.bugDepth", "-Pflakescan.virtualTime")) for a in args),
      "the action's defaults pass no seed, no shuffle and no threads setting (the plugin's defaults apply): %s" % args)
args = gradle_args({"techniques": "threads", "thread-strategy": "pos", "thread-schedules": "40", "bug-depth": "4",
                    "virtual-time": "false", "thread-max-steps": "2000000", "thread-include": "org.example.,com.acme.Cache"})
want = ["-Pflakescan.techniques=threads", "-Pflakescan.threadStrategy=pos", "-Pflakescan.threadSchedules=40",
        "-Pflakescan.bugDepth=4", "-Pflakescan.virtualTime=false", "-Pflakescan.threadMaxSteps=2000000",
        "-Pflakescan.threadInclude=org.example.,com.acme.Cache"]
check(args is not None and all(w in args for w in want),
      "thread-strategy, thread-schedules, bug-depth, virtual-time, thread-max-steps and thread-include reach Gradle as %s"
      " (got %s)" % (" ".join(want), args))
args = gradle_args({"techniques": "suite,shuffle", "seed": "${{ github.run_id }}", "shuffle-seeds": "5", "shuffle-mode": "one"})
want = ["-Pflakescan.techniques=suite,shuffle", "-Pflakescan.seed=" + RUN_ID, "-Pflakescan.shuffleSeeds=5",
        "-Pflakescan.shuffleMode=one"]
check(args is not None and all(w in args for w in want),
      "seed, shuffle-seeds and shuffle-mode reach Gradle as %s (got %s)" % (" ".join(want), args))

# 3. The workflows: only declared inputs; the nightly shuffles with a seed per run.
by_name = {}
for name in sorted(os.listdir(os.path.join(templates, "workflows"))):
    wf = load(os.path.join(templates, "workflows", name))
    for job_name, job in wf.get("jobs", {}).items():
        for step in job.get("steps", []):
            if not ACTION_USE.match(str(step.get("uses", ""))):
                continue
            keys = set((step.get("with") or {}).keys())
            check(keys <= set(inputs), "%s: step '%s' passes only declared inputs (undeclared: %s)"
                  % (name, step.get("name", "?"), sorted(keys - set(inputs))))
            if str((step.get("with") or {}).get("scan", "true")) != "false":
                by_name.setdefault(name if job_name != "new-tests" else name + ":new-tests", []).append(step)

nightly = by_name.get("flakescan-nightly.yml", [])
if check(len(nightly) == 1, "the nightly workflow has one scanning use of the action"):
    w = nightly[0].get("with") or {}
    techniques = [t.strip() for t in str(w.get("techniques", "")).split(",")]
    check("suite" in techniques, "the nightly scans with suite (%s)" % techniques)
    check(int(str(w.get("shuffle-rounds", "0")) or 0) > 0, "the nightly runs shuffled suite rounds (shuffle-rounds: %r)" % w.get("shuffle-rounds"))
    check(re.fullmatch(r"\$\{\{\s*github\.run_id\s*\}\}", str(w.get("seed", ""))) is not None,
          "the nightly passes the run id as its seed (seed: %r)" % w.get("seed"))
    args = gradle_args(w)
    want = ["-Pflakescan.all=true", "-Pflakescan.techniques=suite", "-Pflakescan.seed=" + RUN_ID,
            "-Pflakescan.shuffleRounds=" + str(w.get("shuffle-rounds")), "-Pflakescan.shard=2/4",
            "-Pflakescan.group=" + RUN_ID]
    check(args is not None and all(a in args for a in want),
          "the nightly's scan reaches Gradle with %s (got %s)" % (" ".join(want), args))

# The nightly's shards are merged: a job after the matrix publishes every shard's verdicts.
nightly_wf = load(os.path.join(templates, "workflows", "flakescan-nightly.yml"))
shards = ((nightly_wf.get("jobs", {}).get("scan", {}).get("strategy") or {}).get("matrix") or {}).get("shard", [])
merge_steps = [st for job in nightly_wf.get("jobs", {}).values() if job.get("needs") == "scan" for st in job.get("steps", [])
               if ACTION_USE.match(str(st.get("uses", ""))) and str((st.get("with") or {}).get("scan")) == "false"]
check(shards == [1, 2, 3, 4] and len(merge_steps) == 1
      and (merge_steps[0].get("with") or {}).get("verdicts-directory") == "flakescan-shards",
      "the nightly scans 4 shards and one merge job publishes the shards' verdicts (matrix %s, merge steps %d)"
      % (shards, len(merge_steps)))

new_tests = by_name.get("flakescan-pull-request.yml:new-tests", [])
if check(len(new_tests) == 1, "the pull-request workflow's new-tests job scans once"):
    args = gradle_args(new_tests[0].get("with") or {})
    check(args is not None and "-Pflakescan.newSince=com.example.ChangedTest" in args and "-Pflakescan.runs=10" in args
          and "-Pflakescan.techniques=rerun" in args,
          "the new-tests job reruns the tests new since the base branch 10 times (got %s)" % args)

pull = by_name.get("flakescan-pull-request.yml", [])
if check(len(pull) == 1, "the pull-request workflow has one scanning use of the action"):
    w = pull[0].get("with") or {}
    args = gradle_args(w)
    check(args is not None and "-Pflakescan.techniques=rerun,nio,shuffle" in args and "-Pflakescan.tests=com.example.ChangedTest" in args,
          "the pull request scans its changed tests with rerun,nio,shuffle (got %s)" % args)
    check(args is not None and not any(a.startswith("-Pflakescan.seed=") for a in args),
          "the pull request keeps the default seed: a re-run of its check shuffles the same way")
