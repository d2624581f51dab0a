#!/usr/bin/env bash
# Functional tests of the io.flakescan Gradle plugin (see CMakeLists.txt beside this file).
# usage: functional_test.sh FLAKESCAN_BIN PLUGIN_VERSION WORK_DIR GRADLE_USER_HOME FIXTURES_DIR
# Seven gradle invocations on copies of the fixture projects; every report file (index.html too)
# is checked for content. Prints one line per check and exits non-zero when any check failed.
set -uo pipefail

flakescan=$(readlink -f "$1")
version=$2
work=$3
export GRADLE_USER_HOME=$4
fixtures=$5
failures=0

pass() { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; failures=$((failures + 1)); }
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}
has() { grep -qF -- "$2" "$1"; }

rm -rf "$work"
mkdir -p "$work"

# A daemon of this test's own (port 0), named to every scan: the CLI's default port
# (127.0.0.1:7711) belongs to the CLI's own auto-start test and to a developer's daemon, and
# two runs auto-starting there at once would share, then lose, one daemon.
"$(dirname "$flakescan")/flakescand" --listen 127.0.0.1:0 --port-file "$work/daemon.port" \
  --data-dir "$work/daemon-home" >"$work/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 400); do [ -s "$work/daemon.port" ] && break; sleep 0.05; done
daemon_url="http://127.0.0.1:$(cat "$work/daemon.port" 2>/dev/null)"
stop_all() {
  gradle --stop >/dev/null 2>&1 || true
  kill "$daemon_pid" 2>/dev/null || true
}
trap stop_all EXIT
for project in jvm-project clean-project android-project; do
  cp -r "$fixtures/$project" "$work/$project"
  find "$work/$project" -type f \( -name '*.gradle' -o -name '*.java' \) -exec \
    sed -i -e "s|@PLUGIN_VERSION@|$version|g" -e "s|@RUN_DIR@|$work/runs|g" {} +
done

# run_gradle NAME PROJECT ARGS...: output in $work/NAME.log, exit status in $status.
run_gradle() {
  local name=$1 project=$2
  shift 2
  local daemon=(-Pflakescan.daemon="$daemon_url")
  case " $* " in *" -Pflakescan.daemon="*) daemon=() ;; esac
  (cd "$work/$project" && gradle --offline --console=plain -Pflakescan.executable="$flakescan" "${daemon[@]}" "$@") \
    >"$work/$name.log" 2>&1
  status=$?
  echo "# gradle $* in $project: exit $status (log $work/$name.log)"
}

# JSON and XML checks use python3's standard library.
json_check() { python3 - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
env = {"doc": doc, "by": {v["test"]: v for v in doc.get("verdicts", [])} if "verdicts" in doc else {}}
sys.exit(0 if eval(sys.argv[2], env) else 1)
PY
}
xml_ok() { python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1"; }

line_of() { grep -n -- "$2" "$1" | head -1 | cut -d: -f1; }

# 1. `gradle help` creates no scan task.
run_gradle help jvm-project help
check "gradle help succeeds" test "$status" -eq 0
check "gradle help creates no flakescan task" \
  bash -c "grep -qF 'BUILD SUCCESSFUL' '$work/help.log' && ! grep -qF 'flakescan-task-created' '$work/help.log'"

# 2. The full scan, as in a GitHub Actions job. --no-daemon: Gradle 4.4.1 on JDK 17 cannot pass
#    a changed environment to a running daemon (in CI the daemon starts inside the job).
GITHUB_ACTIONS=true run_gradle scan jvm-project flakeScan --no-daemon
log=$work/scan.log
r=$work/jvm-project/build/reports/flakescan
src=src/test/java/com/example
alt_line=$(line_of "$work/jvm-project/$src/AlternatingTest.java" "public void oddRunsFail")
check "gradle flakeScan succeeds" test "$status" -eq 0
check "flakeScan creates the aggregate and the test task's scan" \
  bash -c "grep -qF 'flakescan-task-created: :flakeScan' '$log' && grep -qF 'flakescan-task-created: :flakeScanTest' '$log'"
check "progress of the scan is shown" has "$log" "flakescan: scanning 3 test id(s) of :test"
check "an annotation is printed on the flaky test's file and line" \
  has "$log" "::warning file=$src/AlternatingTest.java,line=$alt_line,title=Flaky test com.example.AlternatingTest#oddRunsFail"
check "verdicts.json: exactly the annotated test and the two suspects" \
  json_check "$r/verdicts.json" 'sorted(by) == ["com.example.AlternatingTest#oddRunsFail", "com.example.MarkedTest#oddRunsFail", "com.example.StableTest#adds"]'
check "verdicts.json: both alternating tests are flaky with a passing and a failing run" \
  json_check "$r/verdicts.json" 'all(by[t]["verdict"] == "flaky" and by[t]["runs"]["passed"] >= 1 and by[t]["runs"]["failed"] >= 1 for t in ["com.example.AlternatingTest#oddRunsFail", "com.example.MarkedTest#oddRunsFail"])'
check "verdicts.json: the stable suspect is not flaky" \
  json_check "$r/verdicts.json" 'by["com.example.StableTest#adds"]["verdict"] == "not_flaky" and by["com.example.StableTest#adds"]["runs"]["failed"] == 0'
check "flakescan.sarif: SARIF 2.1.0 with the two flaky tests, located" \
  json_check "$r/flakescan.sarif" 'doc["version"] == "2.1.0" and len(doc["runs"][0]["results"]) == 2 and any(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "'"$src/AlternatingTest.java"'" and x["locations"][0]["physicalLocation"]["region"]["startLine"] == '"$alt_line"' for x in doc["runs"][0]["results"])'
check "junit/: well-formed XML per class" \
  bash -c "for f in '$r'/junit/TEST-com.example.{AlternatingTest,MarkedTest,StableTest}.xml; do python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \"\$f\" || exit 1; done"
check "junit/: the flaky test passes with flakyFailure elements, as Surefire marks reruns" \
  bash -c "grep -q '<flakyFailure message=\"run [0-9]* is odd\"' '$r/junit/TEST-com.example.AlternatingTest.xml' && ! grep -q '<failure' '$r/junit/TEST-com.example.AlternatingTest.xml'"
check "junit/: the stable test has no failure" \
  bash -c "test -f '$r/junit/TEST-com.example.StableTest.xml' && ! grep -qE '<(flakyFailure|failure|error)' '$r/junit/TEST-com.example.StableTest.xml'"
check "quarantine.txt lists the flaky tests as notTestFile lines" \
  test "$(cat "$r/quarantine.txt")" = "$(printf 'com.example.AlternatingTest#oddRunsFail\ncom.example.MarkedTest#oddRunsFail')"
check "quarantine.gradle excludes them" \
  bash -c "grep -qF \"'com.example.AlternatingTest.oddRunsFail',\" '$r/quarantine.gradle' && grep -qF \"'com.example.MarkedTest.oddRunsFail',\" '$r/quarantine.gradle'"
check "the patch annotates the unannotated flaky test only" \
  bash -c "grep -qF '+++ b/$src/AlternatingTest.java' '$r/flakytest-suggestions.patch' && ! grep -qF 'MarkedTest' '$r/flakytest-suggestions.patch'"
# (applied to a copy, which must still compile: the fixture is JUnit 4 without androidx)
mkdir -p "$work/patched" && cp -r "$work/jvm-project/src" "$work/patched/"
check "the patch applies and adds JUnit 4's @Category(FlakyTests.class) with the evidence, its import and FlakyTests" \
  bash -c "cd '$work/patched' && patch -p1 --quiet < '$r/flakytest-suggestions.patch' && grep -qF 'import org.junit.experimental.categories.Category;' $src/AlternatingTest.java && grep -qE '^    // flakescan: [0-9]+ out of [0-9]+ runs failed.*run [0-9]+ is odd' $src/AlternatingTest.java && grep -qxF '    @Category(FlakyTests.class)' $src/AlternatingTest.java && grep -qF 'public interface FlakyTests' $src/FlakyTests.java && ! grep -qF androidx $src/AlternatingTest.java"
check "the patched test sources compile against the project's classpath" \
  bash -c "cd '$work/patched' && mkdir -p classes && javac -nowarn -d classes -cp /usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar \$(find src/test/java -name '*.java')"
check "summary.md counts and lists the flaky tests" \
  bash -c "grep -qF '## flakescan: 2 flaky tests out of 3 scanned' '$r/summary.md' && grep -qF '| \`com.example.AlternatingTest#oddRunsFail\` (AlternatingTest.java:$alt_line)' '$r/summary.md'"
check "the per-task reports are kept under build/reports/flakescan/test/" \
  json_check "$r/test/verdicts.json" 'len(by) == 3'
check "index.html: the HTML report with the flaky tests, located, and no script" \
  bash -c "grep -qF '<h1>flakescan: 2 flaky tests out of 3 scanned</h1>' '$r/index.html' && grep -qF '$src/AlternatingTest.java:$alt_line' '$r/index.html' && ! grep -qF '<script' '$r/index.html' && test -s '$r/test/index.html'"
check "its file:// URL is printed, as Gradle prints its test report's" \
  has "$log" "flakescan: See the report at: file://$(readlink -f "$r")/index.html"

# 3. A bad configuration value fails with a clear message.
run_gradle badconfig jvm-project flakeScanTest -Pflakescan.runs=zero
check "a bad value fails the build" test "$status" -ne 0
check "the message names the setting, its source and what is expected" \
  has "$work/badconfig.log" "flakescan: invalid value 'zero' for runs (from -Pflakescan.runs): expected an integer from 1 to 10000"

# 3b. The patch's annotation setting and the test classpath reach `flakescan report`, the
# explore strategy reaches `flakescan scan` (dry run).
run_gradle dryannotation jvm-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.flakyAnnotation=com.acme.Flaky \
  -Pflakescan.strategy=both -Pflakescan.tests=com.example.StableTest#adds
check "-Pflakescan.flakyAnnotation and the test classpath are passed to flakescan report" \
  bash -c "test $status -eq 0 && grep -E 'flakescan \(dry run\): .* report .*--classpath [^ ]*junit4\.jar.* --flaky-annotation com\.acme\.Flaky' '$work/dryannotation.log'"
check "-Pflakescan.strategy reaches flakescan scan as --strategy" \
  bash -c "grep -E 'flakescan \(dry run\): .* scan .*--strategy both' '$work/dryannotation.log'"

# 4. A daemon that is down.
run_gradle daemondown jvm-project flakeScanTest -Pflakescan.daemon=http://127.0.0.1:9 -Pflakescan.tests=com.example.StableTest#adds
check "a daemon that does not answer fails the build" test "$status" -ne 0
check "the message says the scan could not run and why" \
  bash -c "grep -qF 'flakescan: the scan of :test could not run' '$work/daemondown.log' && grep -qF 'http://127.0.0.1:9' '$work/daemondown.log'"

# 5. A project without flaky tests (JUnit 4 and JUnit 5), everything scanned.
run_gradle clean clean-project flakeScan -Pflakescan.all=true
c=$work/clean-project/build/reports/flakescan
check "the clean scan succeeds" test "$status" -eq 0
check "verdicts.json: every test of the project, none flaky" \
  json_check "$c/verdicts.json" 'sorted(by) == ["com.example.GreetingTest#greets", "com.example.GreetingTest#trims", "com.example.JupiterTest#counts", "com.example.StableTest#adds"] and all(v["verdict"] == "not_flaky" for v in by.values())'
check "summary.md says no flaky test" has "$c/summary.md" "## flakescan: 0 flaky tests out of 4 scanned"
check "index.html says no flaky test" has "$c/index.html" "<h1>flakescan: 0 flaky tests out of 4 scanned</h1>"
check "quarantine.txt and the patches exist and are empty" \
  bash -c "test -f '$c/quarantine.txt' && test ! -s '$c/quarantine.txt' && test -f '$c/flakytest-suggestions.patch' && test ! -s '$c/flakytest-suggestions.patch' && test -f '$c/flakescan-repairs.patch' && test ! -s '$c/flakescan-repairs.patch'"
check "an empty flakescan-repairs.patch is not announced" bash -c "! grep -qF 'flakescan-repairs.patch' '$work/clean.log'"
check "flakescan.sarif has no result" json_check "$c/flakescan.sarif" 'doc["runs"][0]["results"] == []'
check "junit/ holds a passing suite per class" \
  bash -c "grep -qF 'tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\"' '$c/junit/TEST-com.example.GreetingTest.xml'"
check "no annotation outside GitHub Actions" bash -c "test $status -eq 0 && ! grep -qF '::warning' '$work/clean.log'"

# 6. Android: connected scans submit the APKs (stand-in Android plugin, dry run: no device here).
run_gradle android android-project flakeScanConnectedDebugAndroidTest -Pflakescan.dryRun=true \
  -Pflakescan.tests=com.example.app.MainActivityTest#opensMainScreen
a=$work/android-project/build
check "the connected scan task exists and runs" test "$status" -eq 0
check "it depends on assembling both APKs" test -f "$a/outputs/apk/androidTest/debug/app-debug-androidTest.apk"
check "the scan command submits the app and test APKs to the adb backend" \
  has "$work/android.log" "--backend adb --apk $a/outputs/apk/debug/app-debug.apk --test-apk $a/outputs/apk/androidTest/debug/app-debug-androidTest.apk"
check "the test ids are handed over" has "$a/reports/flakescan/connectedDebugAndroidTest/tests.txt" "com.example.app.MainActivityTest#opensMainScreen"

echo "# $failures failure(s)"
[ "$failures" -eq 0 ]
