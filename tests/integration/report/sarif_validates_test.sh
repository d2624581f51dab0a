#!/usr/bin/env bash
# A && pass || fail is safe here: pass never fails.
# shellcheck disable=SC2015
# flakescan.sarif through `Sarif.Multitool validate` (the SARIF 2.1.0 schema and the
# multitool's rules), for the report fixtures; with verdicts_repair.json the result of the
# repaired test carries a fix (fixes[].artifactChanges[].replacements[]) that is checked too,
# and flakescan-repairs.patch applies to the fixture project with git apply.
# The multitool is installed from the npm registry into WORK_DIR with `npm ci` (the lock file
# is committed in sarif_validator/); node_modules never enters the source tree.
# usage: sarif_validates_test.sh FLAKESCAN_BIN SOURCE_DIR WORK_DIR
set -uo pipefail

flakescan=$1
src=$2
work=$3
fixtures=$src/tests/fixtures/report
failures=0
pass() { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; failures=$((failures + 1)); }

mkdir -p "$work/validator"
cp "$src/tests/integration/report/sarif_validator/package.json" "$src/tests/integration/report/sarif_validator/package-lock.json" "$work/validator/"
multitool=$work/validator/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -f "$multitool" ]; then
  (cd "$work/validator" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci of @microsoft/sarif-multitool-linux"
fi
# Its postinstall script (chmod u+x) does not run where npm holds install scripts back.
chmod u+x "$multitool" 2>/dev/null

# validate NAME SARIF: the multitool's own log lists what it found; any error or warning fails.
validate() {
  local name=$1 sarif=$2 log=$work/$1.validation.sarif
  rm -f "$log"
  if ! "$multitool" validate "$sarif" -o "$log" --log ForceOverwrite >"$work/$name.validation.txt" 2>&1 || [ ! -s "$log" ]; then
    fail "multitool validate $name: $(tail -5 "$work/$name.validation.txt")"
    return
  fi
  local problems
  problems=$(python3 - "$log" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
for run in log.get("runs", []):
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r.get("ruleId", "?"), r.get("message", {}).get("text", ""))
PY
)
  if [ -z "$problems" ]; then pass "multitool validate $name: no error, no warning"; else fail "multitool validate $name: $problems"; fi
}

# verdicts_mixed.json: every kind of result, no repair; flakescan-repairs.patch is there, empty.
out=$work/mixed
rm -rf "$out"
if "$flakescan" report --quiet --verdicts "$fixtures/verdicts_mixed.json" --out-dir "$out" \
     --source-root "$fixtures/project/src/test/java" --source-root "$fixtures/project/src/test/kotlin" --base-dir "$fixtures/project"; then
  validate mixed "$out/flakescan.sarif"
  test -f "$out/flakescan-repairs.patch" && test ! -s "$out/flakescan-repairs.patch" &&
    pass "mixed: flakescan-repairs.patch is written empty" || fail "mixed: flakescan-repairs.patch missing or not empty"
  python3 -c 'import json,sys; sys.exit(any("fixes" in r for r in json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$out/flakescan.sarif" &&
    pass "mixed: no result has fixes" || fail "mixed: a result has fixes without a repair"
else
  fail "flakescan report on verdicts_mixed.json"
fi

# verdicts_repair.json: one verified repair (a fix), one without a patch.
project=$fixtures/repair-project
out=$work/repair
rm -rf "$out"
if "$flakescan" report --quiet --verdicts "$fixtures/verdicts_repair.json" --out-dir "$out" \
     --source-root "$project/examples/jvm-repair/src/test/java" --base-dir "$project"; then
  validate repair "$out/flakescan.sarif"
  python3 - "$out/flakescan.sarif" <<'PY' && pass "repair: the victim's result has one fix, the NIO test's none" || fail "repair: fixes in flakescan.sarif"
import json, sys
results = {r["partialFingerprints"]["flakescanTest/v1"]: r for r in json.load(open(sys.argv[1]))["runs"][0]["results"]}
fixes = results["example.repair.RegistryVictimTest#startsEmpty"].get("fixes", [])
change = fixes[0]["artifactChanges"][0] if len(fixes) == 1 else {}
ok = (change.get("artifactLocation", {}).get("uri") == "examples/jvm-repair/src/test/java/example/repair/RegistryVictimTest.java"
      and change["replacements"][0]["insertedContent"]["text"] == "        example.repair.app.Registry.clearAll();\n"
      and "fixes" not in results["example.repair.TicketCounterTest#firstTicketIsOne"])
sys.exit(0 if ok else 1)
PY
  copy=$work/repair-project
  rm -rf "$copy"
  cp -r "$project" "$copy"
  (cd "$copy" && git apply --check "$out/flakescan-repairs.patch" && git apply "$out/flakescan-repairs.patch" &&
     grep -qxF '        example.repair.app.Registry.clearAll();' examples/jvm-repair/src/test/java/example/repair/RegistryVictimTest.java) &&
    pass "repair: flakescan-repairs.patch applies with git apply" || fail "repair: flakescan-repairs.patch does not apply"
else
  fail "flakescan report on verdicts_repair.json"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
