#!/usr/bin/env bash
# A && pass || fail is safe here: pass never fails.
# shellcheck disable=SC2015
# Validates ci-templates/ (see CMakeLists.txt beside this file).
# usage: validate.sh SOURCE_DIR WORK_DIR [FLAKESCAN_BIN]
# The validator is installed from the npm registry into WORK_DIR with `npm ci` (the lock file is
# committed in validator/); node_modules never enters the source tree.
set -uo pipefail

src=$1
work=$2
flakescan=${3:-}
templates=$src/ci-templates
failures=0
pass() { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; failures=$((failures + 1)); }

mkdir -p "$work/validator"
cp "$src/tests/integration/ci_templates/validator/package.json" "$src/tests/integration/ci_templates/validator/package-lock.json" "$work/validator/"
validator=$work/validator/node_modules/.bin/action-validator
if [ ! -x "$validator" ]; then
  (cd "$work/validator" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci of @action-validator/cli"
fi

# 1. Every action and workflow against GitHub's schemas.
for f in "$templates"/action/action.yml "$templates"/workflows/*.yml "$src"/.github/workflows/*.yml; do
  if out=$("$validator" "$f" 2>&1); then pass "action-validator: ${f#"$src"/}"; else fail "action-validator: ${f#"$src"/}: $out"; fi
done

# 2. shellcheck on the scripts, and on every run step (written out as a bash script each).
for f in "$templates"/action/scripts/*.sh; do
  if out=$(shellcheck "$f" 2>&1); then pass "shellcheck: ${f#"$src"/}"; else fail "shellcheck: ${f#"$src"/}: $out"; fi
done
steps=$work/run-steps
rm -rf "$steps"
mkdir -p "$steps"
python3 - "$steps" "$templates"/action/action.yml "$templates"/workflows/*.yml "$src"/.github/workflows/*.yml <<'PY' || fail "extracting run steps"
import os, sys, yaml
out = sys.argv[1]
for path in sys.argv[2:]:
    doc = yaml.safe_load(open(path))
    groups = [("action", doc["runs"].get("steps", []))] if "runs" in doc else \
             [(job, spec.get("steps", [])) for job, spec in doc.get("jobs", {}).items()]
    for job, steps in groups:
        for i, step in enumerate(steps):
            if "run" not in step:
                continue
            name = "%s--%s--%d.sh" % (os.path.basename(path), job, i)
            with open(os.path.join(out, name), "w") as f:
                f.write("#!/usr/bin/env bash\n# %s: %s\n" % (path, step.get("name", "")))
                f.write(step["run"])
PY
count=0
for f in "$steps"/*.sh; do
  [ -e "$f" ] || continue
  count=$((count + 1))
  if out=$(shellcheck "$f" 2>&1); then pass "shellcheck run step: $(basename "$f")"; else fail "shellcheck run step: $(basename "$f"): $out"; fi
  # Inputs and event data reach scripts through env:, never by ${{ }} inside the script.
  # shellcheck disable=SC2016  # the literal text ${{ is searched for
  if grep -qF '${{' "$f"; then fail "expression inside a run step: $(basename "$f")"; else pass "env-only inputs: $(basename "$f")"; fi
done
[ "$count" -ge 6 ] && pass "found $count run steps" || fail "found only $count run steps"

# 3a. The inputs' way from a workflow through the action to Gradle (wiring.py): declared and
#     used inputs, env: of the scan step, run.sh's -Pflakescan.* arguments (a stand-in
#     ./gradlew records them), the nightly's techniques and per-run seed.
if out=$(python3 "$src/tests/integration/ci_templates/wiring.py" "$templates" "$work" 2>&1); then
  while IFS= read -r line; do
    case $line in
      "ok   - "*) pass "${line#ok   - }" ;;
      "FAIL - "*) fail "${line#FAIL - }" ;;
    esac
  done <<<"$out"
  grep -q '^ok   - ' <<<"$out" || fail "wiring.py made no check: $out"
else
  fail "wiring.py failed: $out"
fi

# 3. What the action publishes, from the sample verdict files: annotations and job summary
#    compared with the report snapshots, outputs and the failure policy checked.
if [ -z "$flakescan" ] || [ ! -x "$flakescan" ]; then
  fail "flakescan binary not built: cannot check the published annotations and summary"
else
  bin=$work/bin
  mkdir -p "$bin"
  ln -sf "$(readlink -f "$flakescan")" "$bin/flakescan"
  ws=$work/workspace
  rm -rf "$ws"
  cp -r "$src/tests/fixtures/report/project" "$ws"
  mkdir -p "$ws/build/reports/flakescan/test"
  cp "$src/tests/fixtures/report/verdicts_mixed.json" "$ws/build/reports/flakescan/verdicts.json"
  # A per-task copy below it must not be counted twice.
  cp "$src/tests/fixtures/report/verdicts_mixed.json" "$ws/build/reports/flakescan/test/verdicts.json"
  publish() {  # publish FAIL_ON: runs publish.sh as the composite action does
    : >"$work/summary.md"
    : >"$work/output.txt"
    PATH="$bin:$PATH" GITHUB_WORKSPACE="$ws" RUNNER_TEMP="$work/runner-temp" GITHUB_STEP_SUMMARY="$work/summary.md" \
      GITHUB_OUTPUT="$work/output.txt" INPUT_WORKING_DIRECTORY="$ws" INPUT_FAIL_ON="$1" \
      bash "$templates/action/scripts/publish.sh" >"$work/annotations.txt" 2>"$work/publish.log"
  }
  mkdir -p "$work/runner-temp"
  if publish never; then pass "publish.sh runs"; else fail "publish.sh failed: $(cat "$work/publish.log")"; fi
  expected=$src/tests/fixtures/report/expected/mixed
  if diff -u "$expected/annotations.txt" "$work/annotations.txt"; then pass "annotations match the snapshot"; else fail "annotations differ from the snapshot"; fi
  if diff -u "$expected/summary.md" "$work/summary.md"; then pass "job summary matches the snapshot"; else fail "job summary differs from the snapshot"; fi
  grep -qx "flaky-count=7" "$work/output.txt" && pass "output flaky-count=7" || fail "output flaky-count: $(cat "$work/output.txt")"
  grep -qx "policy-failed=false" "$work/output.txt" && pass "fail-on never passes" || fail "fail-on never"
  reports=$(sed -n 's/^reports-dir=//p' "$work/output.txt")
  for f in verdicts.json flakescan.sarif summary.md quarantine.txt quarantine.gradle flakytest-suggestions.patch junit/TEST-com.example.CounterTest.xml; do
    [ -s "$reports/$f" ] && pass "reports-dir has $f" || fail "reports-dir lacks $f"
  done
  publish flaky
  grep -qx "policy-failed=true" "$work/output.txt" && pass "fail-on flaky fails with flaky tests" || fail "fail-on flaky"
  # A workspace without results gets a warning, not a failure.
  rm -rf "$ws/build"
  if publish never && grep -qF "::warning title=flakescan::no verdicts.json" "$work/annotations.txt"; then
    pass "no results: a warning"
  else
    fail "no results: $(cat "$work/annotations.txt" "$work/publish.log")"
  fi
fi

echo "# $failures failure(s)"
[ "$failures" -eq 0 ]
