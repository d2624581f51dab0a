#!/usr/bin/env bash
# Every @FlakyTest patch `flakescan report` writes applies with `git apply` and compiles.
# usage: patch_compiles_test.sh FLAKESCAN_BIN JAVA_LIB_DIR WORK_DIR
# Projects laid out as Gradle lays them out (sources, class directories) are written into
# WORK_DIR and compiled with javac against Debian's jars in JAVA_LIB_DIR: a JUnit 4 project
# without AndroidX, a JUnit 5 one, one with AndroidX's FlakyTest on its classpath (a stand-in
# jar), and one whose build names its own annotation. Each gets a verdict file marking tests
# flaky, `flakescan report --classpath ...` writes the patch, the patch is applied to a copy
# and the copy must compile. One line per check; exits non-zero when any check failed.
set -uo pipefail

flakescan=$(readlink -f "$1")
lib=$2
work=$3
failures=0

pass() { echo "ok   - $*"; }
fail() { echo "FAIL - $*"; failures=$((failures + 1)); }
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@" >"$work/last-check.log" 2>&1; then pass "$what"; else fail "$what"; sed 's/^/    /' "$work/last-check.log"; fi
}

rm -rf "$work"
mkdir -p "$work"
junit4="$lib/junit4.jar:$lib/hamcrest-core.jar"
jupiter="$lib/junit-jupiter-api.jar:$lib/junit-jupiter-params.jar:$lib/apiguardian-api.jar:$lib/opentest4j.jar:$lib/junit-platform-commons.jar"

# write FILE: the file's text from stdin.
write() { mkdir -p "$(dirname "$1")" && cat >"$1"; }

# verdicts FILE TEST...: a verdict file in which every TEST (pkg.Class#method) is flaky.
verdicts() {
  local file=$1 sep=""
  shift
  {
    printf '{"schema_version": 1, "scan": {"id": "scan-1", "state": "completed", "backend": "local", "techniques": ["rerun"]},\n "verdicts": ['
    for t in "$@"; do
      printf '%s\n  {"test": "%s", "verdict": "flaky", "category": "concurrency", "technique": "rerun",' "$sep" "$t"
      printf ' "runs": {"total": 10, "passed": 7, "failed": 3}, "evidence": {"reason": "Passed and failed in isolated runs \\\\u000a."}}'
      sep=","
    done
    printf ']}\n'
  } >"$file"
}

# compile PROJECT CLASSPATH: javac of every source of the project (main, then test) into
# build/classes/java/{main,test}, as Gradle's compileJava and compileTestJava do.
compile() {
  local p=$1 cp=$2
  rm -rf "$p/build/classes"
  mkdir -p "$p/build/classes/java/main" "$p/build/classes/java/test"
  if [ -d "$p/src/main/java" ]; then
    javac -nowarn -d "$p/build/classes/java/main" $(find "$p/src/main/java" -name '*.java') || return 1
  fi
  javac -nowarn -d "$p/build/classes/java/test" -cp "$p/build/classes/java/main:$cp" $(find "$p/src/test/java" -name '*.java')
}

# report_patch NAME CLASSPATH REPORT-OPTIONS... TESTS...: the project $work/NAME, compiled, then
# `flakescan report` with the classpath as Gradle passes it (class directories first);
# $patch is the patch, $status the report's exit status.
report_patch() {
  local name=$1 cp=$2
  shift 2
  local p=$work/$name
  local opts=()
  while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do opts+=("$1" "$2"); shift 2; done
  verdicts "$p.verdicts.json" "$@"
  "$flakescan" report --quiet --verdicts "$p.verdicts.json" --out-dir "$p.report" --source-root "$p/src/test/java" \
    --base-dir "$p" --classpath "$p/build/classes/java/test:$p/build/classes/java/main:$cp" "${opts[@]}"
  status=$?
  patch=$p.report/flakytest-suggestions.patch
}

# applies_and_compiles NAME CLASSPATH: the patch applied with git apply to a copy of the
# project's sources, and the copy compiled against the same classpath.
applies_and_compiles() {
  local name=$1 cp=$2 copy=$work/$1-patched
  rm -rf "$copy" && mkdir -p "$copy" && cp -r "$work/$name/src" "$copy/" &&
    (cd "$copy" && git init -q && git apply --verbose "$work/$name.report/flakytest-suggestions.patch") &&
    compile "$copy" "$cp"
}

has() { grep -qF -- "$2" "$1"; }
hasnt() { ! grep -qF -- "$2" "$1"; }

# ---- 1. JUnit 4, no AndroidX: @Category(FlakyTests.class) and the marker interface -------
p=$work/junit4
write "$p/src/main/java/com/example/Counter.java" <<'JAVA'
package com.example;

public class Counter {
    private int value;
    public void increment() { value++; }
    public int value() { return value; }
}
JAVA
write "$p/src/test/java/com/example/CounterTest.java" <<'JAVA'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CounterTest {
    @Test
    public void incrementsOnce() {
        Counter c = new Counter();
        c.increment();
        assertEquals(1, c.value());
    }

    @Test(timeout = 2000)
    public void incrementsTwice() {
        Counter c = new Counter();
        c.increment();
        c.increment();
        assertEquals(2, c.value());
    }
}
JAVA
write "$p/src/test/java/com/example/clock/ClockTest.java" <<'JAVA'
package com.example.clock;

import org.junit.Assert;
import org.junit.Test;

public class ClockTest {
    @Test
    public void ticks() {
        Assert.assertTrue(System.nanoTime() != 0);
    }
}
JAVA
check "the JUnit 4 project compiles" compile "$p" "$junit4"
report_patch junit4 "$junit4" com.example.CounterTest#incrementsOnce com.example.CounterTest#incrementsTwice com.example.clock.ClockTest#ticks
check "JUnit 4: flakescan report writes the patch" test "$status" -eq 0 -a -s "$patch"
check "JUnit 4: no AndroidX import (not on the classpath)" hasnt "$patch" "androidx"
check "JUnit 4: each flaky test gets @Category(FlakyTests.class), with the evidence in a comment" \
  bash -c "test \$(grep -cxF '+    @Category(FlakyTests.class)' '$patch') -eq 3 && grep -qF '+    // flakescan: 3 out of 10 runs failed' '$patch'"
check "JUnit 4: the marker interface is added once per package" \
  bash -c "grep -qxF '+++ b/src/test/java/com/example/FlakyTests.java' '$patch' && grep -qxF '+++ b/src/test/java/com/example/clock/FlakyTests.java' '$patch'"
check "JUnit 4: the patch applies with git apply and the sources compile" applies_and_compiles junit4 "$junit4"
check "JUnit 4: the annotated tests are in the category (class file)" \
  bash -c "javap -v -cp '$work/junit4-patched/build/classes/java/test' com.example.CounterTest | grep -qF 'Lorg/junit/experimental/categories/Category;'"

# ---- 2. JUnit 5: @Tag("flaky") --------------------------------------------------------------
p=$work/junit5
write "$p/src/test/java/com/example/cache/CacheTest.java" <<'JAVA'
package com.example.cache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CacheTest {
    @Test
    void startsEmpty() {
        assertTrue(true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void acceptsSizes(int size) {
        assertTrue(size > 0);
    }

    @Nested
    class WhenFull {
        @Test
        void evicts() {
            assertTrue(true);
        }
    }
}
JAVA
check "the JUnit 5 project compiles" compile "$p" "$jupiter"
report_patch junit5 "$jupiter" 'com.example.cache.CacheTest#startsEmpty' 'com.example.cache.CacheTest#acceptsSizes(int)[2]' \
  'com.example.cache.CacheTest$WhenFull#evicts'
check "JUnit 5: flakescan report writes the patch" test "$status" -eq 0 -a -s "$patch"
check "JUnit 5: @Tag(\"flaky\") on each test and its import, nothing else" \
  bash -c "test \$(grep -c '^+ *@Tag(\"flaky\")\$' '$patch') -eq 3 && grep -qxF '+import org.junit.jupiter.api.Tag;' '$patch' && ! grep -qE 'androidx|Category' '$patch'"
check "JUnit 5: the patch applies with git apply and the sources compile" applies_and_compiles junit5 "$jupiter"

# ---- 3. AndroidX FlakyTest on the classpath (a stand-in jar): @FlakyTest(detail = ...) ------
p=$work/androidx
write "$work/androidx-stub/androidx/test/filters/FlakyTest.java" <<'JAVA'
package androidx.test.filters;

public @interface FlakyTest {
    int bugId() default -1;
    String detail() default "";
}
JAVA
check "the AndroidX stand-in jar builds" bash -c "mkdir -p '$work/androidx-stub/classes' && javac -d '$work/androidx-stub/classes' '$work/androidx-stub/androidx/test/filters/FlakyTest.java' && jar cf '$work/androidx-stub/runner.jar' -C '$work/androidx-stub/classes' ."
androidx_cp="$junit4:$work/androidx-stub/runner.jar"
mkdir -p "$p/src/test/java/com/example" && cp "$work/junit4/src/test/java/com/example/CounterTest.java" "$p/src/test/java/com/example/"
mkdir -p "$p/src/main" && cp -r "$work/junit4/src/main/java" "$p/src/main/"
check "the AndroidX project compiles" compile "$p" "$androidx_cp"
report_patch androidx "$androidx_cp" com.example.CounterTest#incrementsOnce
check "AndroidX: @FlakyTest(detail = ...) and its import" \
  bash -c "grep -qxF '+import androidx.test.filters.FlakyTest;' '$patch' && grep -qF '+    @FlakyTest(detail = \"3 out of 10 runs failed' '$patch' && ! grep -qF 'Category' '$patch'"
check "AndroidX: the patch applies with git apply and the sources compile" applies_and_compiles androidx "$androidx_cp"

# ---- 4. The build's own annotation (--flaky-annotation) -------------------------------------
p=$work/custom
cp -r "$work/junit4" "$p" && rm -rf "$p/build"
write "$p/src/test/java/com/acme/Flaky.java" <<'JAVA'
package com.acme;

public @interface Flaky {}
JAVA
check "the custom project compiles" compile "$p" "$junit4"
report_patch custom "$junit4" --flaky-annotation com.acme.Flaky com.example.CounterTest#incrementsOnce
check "custom: @Flaky and its import, no category, no marker" \
  bash -c "grep -qxF '+    @Flaky' '$patch' && grep -qxF '+import com.acme.Flaky;' '$patch' && ! grep -qE 'Category|FlakyTests|androidx' '$patch'"
check "custom: the patch applies with git apply and the sources compile" applies_and_compiles custom "$junit4"

# ---- 5. A second report over the patched JUnit 4 sources adds nothing ----------------------
report_patch junit4-patched "$junit4" com.example.CounterTest#incrementsOnce com.example.CounterTest#incrementsTwice com.example.clock.ClockTest#ticks
check "a patched project gets an empty patch (no duplicate annotation, import or marker)" \
  test "$status" -eq 0 -a -f "$work/junit4-patched/build/classes/java/test/com/example/FlakyTests.class" -a -f "$patch" -a ! -s "$patch"

echo "# $failures check(s) failed"
exit $((failures > 0))
