#!/usr/bin/env bash
# Functional tests of the io.flakescan Gradle plugin (see CMakeLists.txt beside this file).
# usage: functional_test.sh FLAKESCAN_BIN PLUGIN_VERSION WORK_DIR GRADLE_USER_HOME FIXTURES_DIR
# Gradle invocations on copies of the fixture projects; every report file (index.html too) is
# checked for content. Prints one line per check and exits non-zero when any check failed.
# Technique shuffle's project and sample verdicts are in shuffle/ beside this script.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
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

# A daemon of this test's own (port 0), named to every scan but the parallel one (7.), which
# uses the CLI's default port (127.0.0.1:7711) as a user's build does; CTest gives that port
# to one test at a time (resource lock default-daemon-port).
# Its shuffling JDK (technique shuffle) is prepared once per build tree, beside the work folder.
FLAKESCAN_CACHE_DIR="$work/../shuffling-jdk-cache" "$(dirname "$flakescan")/flakescand" --listen 127.0.0.1:0 --port-file "$work/daemon.port" \
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
# shuffle-project: the JVM project plus an implementation-dependent test, with shuffle's
# settings in its build script (-PtestShuffleSeeds replaces the build script's value).
cp -r "$work/jvm-project" "$work/shuffle-project"
cp "$here/shuffle/MenuTest.java" "$work/shuffle-project/src/test/java/com/example/"
cat >>"$work/shuffle-project/build.gradle" <<'EOF'

flakeScan {
    techniques 'rerun', 'shuffle'
    shuffleSeeds = (project.findProperty('testShuffleSeeds') ?: '7') as Integer
    shuffleMode = 'one'
}
EOF

# threads-project: the JVM project with threads' agent settings in its build script.
cp -r "$work/jvm-project" "$work/threads-project"
cat >>"$work/threads-project/build.gradle" <<'EOF'

flakeScan {
    techniques 'rerun', 'threads'
    threadMaxSteps = 500000
    threadInclude 'com.example.', 'org.acme.Cache'
}
EOF

# run_gradle NAME PROJECT ARGS...: output in $work/NAME.log, exit status in $status.
run_gradle() {
  local name=$1 project=$2
  shift 2
  local daemon=(-Pflakescan.daemon="$daemon_url") executable=(-Pflakescan.executable="$flakescan")
  case " $* " in *" -Pflakescan.daemon="*) daemon=() ;; esac
  case " $* " in *" -Pflakescan.executable="*) executable=() ;; esac
  (cd "$work/$project" && gradle --offline --console=plain "${executable[@]}" "${daemon[@]}" "$@") \
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

# 3c. Techniques suite and shuffle, and shuffle's settings, reach `flakescan scan` (dry run):
# first from the command line, then from the build script, then the command line over it.
run_gradle dryshuffle jvm-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.techniques=suite,shuffle \
  -Pflakescan.seed=9876543210 -Pflakescan.shuffleSeeds=5 -Pflakescan.shuffleMode=one -Pflakescan.shuffleRounds=4 -Pflakescan.tests=com.example.StableTest#adds
check "techniques suite,shuffle are accepted" test "$status" -eq 0
check "-Pflakescan.seed (a CI run id, above 2^31), shuffleSeeds, shuffleMode and shuffleRounds reach flakescan scan" \
  grep -qE 'flakescan \(dry run\): .* scan .*--techniques suite,shuffle .*--seed 9876543210 --shuffle-seeds 5 --shuffle-mode one --shuffle-rounds 4( |$)' "$work/dryshuffle.log"
check "without shuffle settings no --shuffle option is passed (the CLI's defaults apply)" \
  bash -c "grep -qE 'flakescan \(dry run\): .* scan ' '$work/dryannotation.log' && ! grep -qF -- '--shuffle-' '$work/dryannotation.log'"
run_gradle dryshuffleext shuffle-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.tests=com.example.MenuTest
check "shuffleSeeds and shuffleMode from the build script reach flakescan scan" \
  grep -qE 'flakescan \(dry run\): .* scan .*--techniques rerun,shuffle .*--shuffle-seeds 7 --shuffle-mode one( |$)' "$work/dryshuffleext.log"
run_gradle dryshuffleover shuffle-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.tests=com.example.MenuTest \
  -Pflakescan.shuffleMode=full
check "-Pflakescan.shuffleMode wins over the build script, and the task runs again (never up to date)" \
  bash -c "grep -qE 'flakescan \(dry run\): .* scan .*--shuffle-seeds 7 --shuffle-mode full( |\$)' '$work/dryshuffleover.log' && ! grep -qF 'flakeScanTest UP-TO-DATE' '$work/dryshuffleover.log'"

# 3c''. Technique threads and its settings reach `flakescan scan` (dry run): from the command
# line, and without them no --thread option is passed (the CLI's defaults apply); the agent's
# step limit and class prefixes also from the build script; bad ones fail the build.
run_gradle drythreads jvm-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.techniques=rerun,threads \
  -Pflakescan.threadStrategy=pos -Pflakescan.threadSchedules=40 -Pflakescan.bugDepth=4 -Pflakescan.virtualTime=false \
  -Pflakescan.threadMaxSteps=2000000 -Pflakescan.threadInclude=org.example.,com.acme.Cache \
  -Pflakescan.tests=com.example.StableTest#adds
check "technique threads is accepted" test "$status" -eq 0
check "threadStrategy, threadSchedules, bugDepth, virtualTime, threadMaxSteps and threadInclude reach flakescan scan" \
  grep -qE 'flakescan \(dry run\): .* scan .*--techniques rerun,threads .*--thread-strategy pos --thread-schedules 40 --bug-depth 4 --virtual-time off --thread-max-steps 2000000 --thread-include org\.example\.,com\.acme\.Cache( |$)' "$work/drythreads.log"
check "without threads settings no --thread, --bug-depth or --virtual-time option is passed" \
  bash -c "grep -qE 'flakescan \(dry run\): .* scan ' '$work/dryannotation.log' && ! grep -qE -- '--thread-|--bug-depth|--virtual-time' '$work/dryannotation.log'"
run_gradle badthreads jvm-project flakeScanTest -Pflakescan.threadStrategy=fair -Pflakescan.tests=com.example.StableTest#adds
check "an invalid threadStrategy fails the build, naming it and the strategies" \
  has "$work/badthreads.log" "flakescan: invalid value 'fair' for threadStrategy (from -Pflakescan.threadStrategy): expected one of pct, pos, random"
run_gradle drythreadsext threads-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.tests=com.example.StableTest#adds
check "threadMaxSteps and threadInclude (method form) from the build script reach flakescan scan" \
  bash -c "test $status -eq 0 && grep -qE 'flakescan \(dry run\): .* scan .*--techniques rerun,threads .*--thread-max-steps 500000 --thread-include com\.example\.,org\.acme\.Cache( |\$)' '$work/drythreadsext.log'"
run_gradle badmaxsteps threads-project flakeScanTest -Pflakescan.threadMaxSteps=100000001 -Pflakescan.tests=com.example.StableTest#adds
check "a threadMaxSteps above the CLI's limit fails the build, naming it and its range" \
  bash -c "test $status -ne 0 && grep -qF \"flakescan: invalid value '100000001' for threadMaxSteps (from -Pflakescan.threadMaxSteps): expected an integer from 1 to 100000000\" '$work/badmaxsteps.log'"
run_gradle badinclude threads-project flakeScanTest -Pflakescan.threadInclude=org.example.,org..acme -Pflakescan.tests=com.example.StableTest#adds
check "a threadInclude entry that is not a class-name prefix fails the build, naming it" \
  bash -c "test $status -ne 0 && grep -qF \"flakescan: invalid value 'org..acme' for threadInclude (from -Pflakescan.threadInclude): expected class-name prefixes such as org.example. or com.acme.Cache\" '$work/badinclude.log'"

# 3c'. A CI matrix job's shard and group reach `flakescan scan`; a shard without a group, or
# not of the form I/N, fails the build saying so.
run_gradle dryshard jvm-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.shard=2/4 -Pflakescan.group=ci-991 \
  -Pflakescan.tests=com.example.StableTest#adds
check "-Pflakescan.shard and -Pflakescan.group reach flakescan scan" \
  grep -qE 'flakescan \(dry run\): .* scan .*--shard 2/4 --group ci-991( |$)' "$work/dryshard.log"
run_gradle badshard jvm-project flakeScanTest -Pflakescan.shard=2/4 -Pflakescan.tests=com.example.StableTest#adds
check "a shard without a group fails the build, saying so" \
  has "$work/badshard.log" "flakescan: invalid value '2/4' for shard (from -Pflakescan.shard): expected a group too"
run_gradle badshard2 jvm-project flakeScanTest -Pflakescan.shard=5/4 -Pflakescan.group=g -Pflakescan.tests=com.example.StableTest#adds
check "a shard outside I/N fails the build, saying so" \
  has "$work/badshard2.log" "flakescan: invalid value '5/4' for shard (from -Pflakescan.shard): expected I/N with 1 <= I <= N <= 1000"

# 3d. Bad shuffle settings and unknown techniques fail with clear messages; the plugin accepts
# exactly the daemon's techniques (GET /v1/health).
run_gradle badmode jvm-project flakeScanTest -Pflakescan.shuffleMode=sorted -Pflakescan.tests=com.example.StableTest#adds
check "an invalid shuffleMode fails the build" test "$status" -ne 0
check "the message names shuffleMode, its source and the modes" \
  has "$work/badmode.log" "flakescan: invalid value 'sorted' for shuffleMode (from -Pflakescan.shuffleMode): expected one of full, one"
run_gradle badseeds shuffle-project flakeScanTest -PtestShuffleSeeds=101 -Pflakescan.tests=com.example.MenuTest
check "shuffleSeeds 101 in the build script fails the build" test "$status" -ne 0
check "the message names flakeScan.shuffleSeeds and its range" \
  has "$work/badseeds.log" "flakescan: invalid value '101' for shuffleSeeds (from flakeScan.shuffleSeeds): expected an integer from 1 to 100"
# 3e. A real shuffle scan of the implementation-dependent MenuTest: found, located, fixed, and
#     carried by every report the plugin writes.
run_gradle shufflescan shuffle-project flakeScanTest -Pflakescan.tests=com.example.MenuTest#listsDrinksInOrder \
  -Pflakescan.techniques=shuffle -Pflakescan.shuffleSeeds=3 -Pflakescan.shuffleMode=full --no-daemon
s=$work/shuffle-project/build/reports/flakescan/test
check "the shuffle scan succeeds" test "$status" -eq 0
check "verdicts.json: MenuTest is flaky, implementation_dependent, at the keySet loop of line 26" \
  json_check "$s/verdicts.json" 'by["com.example.MenuTest#listsDrinksInOrder"]["verdict"] == "flaky" and by["com.example.MenuTest#listsDrinksInOrder"]["category"] == "implementation_dependent" and by["com.example.MenuTest#listsDrinksInOrder"]["evidence"]["details"]["user_frame"].endswith("(MenuTest.java:26)")'
check "flakescan.sarif: the implementation-dependent rule, and a fix" \
  json_check "$s/flakescan.sarif" 'any(x["ruleId"] == "flakescan/flaky/implementation-dependent" and x.get("fixes") for x in doc["runs"][0]["results"])'
check "quarantine.txt lists it" has "$s/quarantine.txt" "com.example.MenuTest#listsDrinksInOrder"
check "the @FlakyTest suggestion annotates it" \
  bash -c "grep -qF '+++ b/src/test/java/com/example/MenuTest.java' '$s/flakytest-suggestions.patch'"
check "flakescan-repairs.patch makes the HashMap a LinkedHashMap and applies" \
  bash -c "grep -qF 'LinkedHashMap' '$s/flakescan-repairs.patch' && cd '$work/shuffle-project' && git apply --check '$s/flakescan-repairs.patch'"
check "index.html shows the unspecified order and where it is read" \
  bash -c "grep -qF '<h4>Unspecified order</h4>' '$s/index.html' && grep -qF 'MenuTest.java:26)' '$s/index.html'"

run_gradle badtechnique jvm-project flakeScanTest -Pflakescan.techniques=rerun,trace -Pflakescan.tests=com.example.StableTest#adds
check "an unknown technique fails the build" test "$status" -ne 0
known=$(sed -nE "s/.*flakescan: invalid value 'trace' for techniques \(from -Pflakescan.techniques\): expected one of (.*)$/\1/p" "$work/badtechnique.log" | head -1)
echo "# the plugin's techniques: ${known:-none}"
check "the message lists the known techniques, suite and shuffle among them" \
  bash -c "grep -qw suite <<<'$known' && grep -qw shuffle <<<'$known'"
check "the plugin accepts exactly the daemon's techniques (GET /v1/health)" \
  python3 -c 'import json, sys, urllib.request
daemon = json.load(urllib.request.urlopen(sys.argv[1] + "/v1/health", timeout=10))["techniques"]
sys.exit(0 if sorted(daemon) == sorted(sys.argv[2].split(", ")) else 1)' "$daemon_url" "$known"

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
  json_check "$c/verdicts.json" 'sorted(by) == ["com.example.GreetingTest#greets", "com.example.GreetingTest#trims", "com.example.JupiterTest#counts", "com.example.StableTest#adds", "com.example.TestTaskSettingsTest#seesTheTestTaskSettings"] and all(v["verdict"] == "not_flaky" for v in by.values())'
check "the test that needs the Test task's systemProperty and jvmArgs passed every run" \
  json_check "$c/verdicts.json" 'by["com.example.TestTaskSettingsTest#seesTheTestTaskSettings"]["runs"]["passed"] >= 1 and by["com.example.TestTaskSettingsTest#seesTheTestTaskSettings"]["runs"]["failed"] == 0'
check "summary.md says no flaky test" has "$c/summary.md" "## flakescan: 0 flaky tests out of 5 scanned"
check "index.html says no flaky test" has "$c/index.html" "<h1>flakescan: 0 flaky tests out of 5 scanned</h1>"
check "quarantine.txt and the patches exist and are empty" \
  bash -c "test -f '$c/quarantine.txt' && test ! -s '$c/quarantine.txt' && test -f '$c/flakytest-suggestions.patch' && test ! -s '$c/flakytest-suggestions.patch' && test -f '$c/flakescan-repairs.patch' && test ! -s '$c/flakescan-repairs.patch'"
check "an empty flakescan-repairs.patch is not announced" bash -c "! grep -qF 'flakescan-repairs.patch' '$work/clean.log'"
check "flakescan.sarif has no result" json_check "$c/flakescan.sarif" 'doc["runs"][0]["results"] == []'
check "junit/ holds a passing suite per class" \
  bash -c "grep -qF 'tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\"' '$c/junit/TEST-com.example.GreetingTest.xml'"
check "no annotation outside GitHub Actions" bash -c "test $status -eq 0 && ! grep -qF '::warning' '$work/clean.log'"

# 5b. The test JVMs' options (dry runs): the Test task's, then jvmArgs, but never the Test
#     task's debugger agent; testTaskJvmArgs=false leaves the Test task's out; a bad value fails.
printf '\ntest { debug = true }\n' >>"$work/clean-project/build.gradle"
run_gradle jvmargs clean-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.all=true \
  "-Pflakescan.jvmArgs=-Duser.timezone=UTC -Xss2m"
check "the Test task's systemProperty and jvmArgs, then the setting's, reach flakescan scan" \
  bash -c "test $status -eq 0 && grep -qF -- '--jvm-arg=-Dgreeting.punctuation=! ' '$work/jvmargs.log' && grep -qF -- '--jvm-arg=-Dgreeting.mode=plain ' '$work/jvmargs.log' && grep -qE -- 'greeting.* --jvm-arg=-Duser.timezone=UTC --jvm-arg=-Xss2m$' '$work/jvmargs.log'"
check "the Test task's assertions setting reaches it too" has "$work/jvmargs.log" "--jvm-arg=-ea"
check "a Test task's debugger agent is left out" bash -c "! grep -qE -- 'agentlib:jdwp|Xrunjdwp|-Xdebug' '$work/jvmargs.log'"
run_gradle jvmargsoff clean-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.all=true \
  -Pflakescan.testTaskJvmArgs=false -Pflakescan.jvmArgs=user.timezone=UTC
check "a jvmArgs value that is not an option fails with a clear message" \
  bash -c "test $status -ne 0 && grep -qF \"flakescan: invalid value 'user.timezone=UTC' for jvmArgs (from -Pflakescan.jvmArgs): expected JVM options\" '$work/jvmargsoff.log'"
run_gradle jvmargsoff clean-project flakeScanTest -Pflakescan.dryRun=true -Pflakescan.all=true \
  -Pflakescan.testTaskJvmArgs=false -Pflakescan.jvmArgs=-Duser.timezone=UTC
check "testTaskJvmArgs=false passes only the setting's options" \
  bash -c "test $status -eq 0 && grep -qF -- '--jvm-arg=-Duser.timezone=UTC' '$work/jvmargsoff.log' && ! grep -qF -- 'greeting' '$work/jvmargsoff.log'"

# 6. Android: connected scans submit the APKs (stand-in Android plugin, dry run: no device here).
run_gradle android android-project flakeScanConnectedDebugAndroidTest -Pflakescan.dryRun=true \
  -Pflakescan.tests=com.example.app.MainActivityTest#opensMainScreen
a=$work/android-project/build
check "the connected scan task exists and runs" test "$status" -eq 0
check "it depends on assembling both APKs" test -f "$a/outputs/apk/androidTest/debug/app-debug-androidTest.apk"
check "the scan command submits the app and test APKs to the adb backend" \
  has "$work/android.log" "--backend adb --apk $a/outputs/apk/debug/app-debug.apk --test-apk $a/outputs/apk/androidTest/debug/app-debug-androidTest.apk"
check "the test ids are handed over" has "$a/reports/flakescan/connectedDebugAndroidTest/tests.txt" "com.example.app.MainActivityTest#opensMainScreen"
# shuffle needs the local JVM: a device scan leaves it out, saying so, or fails when it is all.
run_gradle androidshuffle android-project flakeScanConnectedDebugAndroidTest -Pflakescan.dryRun=true \
  -Pflakescan.techniques=rerun,shuffle -Pflakescan.tests=com.example.app.MainActivityTest#opensMainScreen
check "a connected scan with rerun,shuffle runs rerun only" \
  bash -c "test $status -eq 0 && grep -qE -- '--backend adb .*--techniques rerun --runs' '$work/androidshuffle.log'"
check "and warns that shuffle was left out" \
  has "$work/androidshuffle.log" "flakescan: technique(s) shuffle run on the local JVM backend only: left out of the device scan connectedDebugAndroidTest"
run_gradle androidshuffleonly android-project flakeScanConnectedDebugAndroidTest -Pflakescan.dryRun=true \
  -Pflakescan.techniques=shuffle -Pflakescan.tests=com.example.app.MainActivityTest#opensMainScreen
check "a connected scan with shuffle alone fails, saying why" \
  bash -c "test $status -ne 0 && grep -qF 'flakescan: technique(s) shuffle run on the local JVM backend only; connectedDebugAndroidTest runs on a device' '$work/androidshuffleonly.log'"

# 7. Two modules whose flakeScan tasks run at the same time (--parallel, as with
#    org.gradle.parallel=true), each CLI finding or starting the daemon at the default address
#    as on a developer's machine: both complete with their verdicts, neither loses the daemon.
mkdir -p "$work/multi"
printf "rootProject.name = 'multi'\ninclude 'alpha', 'beta'\n" >"$work/multi/settings.gradle"
for module in alpha beta; do
  mkdir -p "$work/multi/$module"
  cp -r "$work/jvm-project/src" "$work/jvm-project/suspects" "$work/jvm-project/build.gradle" "$work/multi/$module/"
done
FLAKESCAN_HOME="$work/cli-home" run_gradle parallel multi flakeScan --parallel --max-workers=2 --no-daemon -Pflakescan.daemon=http://127.0.0.1:7711
check "both modules' parallel flakeScan tasks succeed" test "$status" -eq 0
check "no task lost the daemon or ended incomplete" \
  bash -c "! grep -qE 'lost the daemon|did not complete' '$work/parallel.log'"
for module in alpha beta; do
  check "$module: the alternating test is flaky, the stable one not" \
    json_check "$work/multi/$module/build/reports/flakescan/verdicts.json" 'by["com.example.AlternatingTest#oddRunsFail"]["verdict"] == "flaky" and by["com.example.StableTest#adds"]["verdict"] == "not_flaky"'
done

echo "# $failures failure(s)"
[ "$failures" -eq 0 ]
