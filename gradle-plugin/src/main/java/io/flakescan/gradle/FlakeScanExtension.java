package io.flakescan.gradle;

import java.util.ArrayList;
import java.util.List;

import javax.inject.Inject;

import io.flakescan.gradle.internal.compat.GradleVersionCompat;

import org.gradle.api.model.ObjectFactory;
import org.gradle.api.provider.Property;

/**
 * The {@code flakeScan { }} block. Every setting is a lazy {@link Property} read only when a
 * scan task runs, and each can be overridden from the command line with
 * {@code -Pflakescan.<name>=value} (the command line wins). Lists are comma-separated strings
 * so that the same text works in the build script and on the command line
 * ({@code techniques = 'rerun,order'}); the list properties also have a method form
 * ({@code techniques 'rerun', 'order'}). Gradle's DSL turns {@code name = value} into
 * {@code getName().set(value)}, so the class declares no setters.
 *
 * <p>Only String, Integer, Long and Boolean properties are used: they behave the same from
 * Gradle 4.4 to current releases ({@code ListProperty} changed its type hierarchy in 5.0;
 * {@link GradleVersionCompat} holds every such difference).
 *
 * <p>Public API, with {@link FlakeScanPlugin}; everything under {@code io.flakescan.gradle.internal}
 * is the plugin's own and may change.
 */
public class FlakeScanExtension {
    public static final String DEFAULT_DAEMON = "http://127.0.0.1:7711";

    private final Property<String> daemon;
    private final Property<Boolean> startDaemon;
    private final Property<String> executable;
    private final Property<String> techniques;
    private final Property<Integer> runs;
    private final Property<Integer> runTimeoutSeconds;
    private final Property<Integer> maxRuns;
    private final Property<Integer> maxSeconds;
    private final Property<Integer> seed;
    private final Property<String> strategy;
    private final Property<Integer> shuffleSeeds;
    private final Property<String> shuffleMode;
    private final Property<Integer> shuffleRounds;
    private final Property<String> threadStrategy;
    private final Property<Integer> threadSchedules;
    private final Property<Integer> bugDepth;
    private final Property<Boolean> virtualTime;
    private final Property<Integer> threadMaxSteps;
    private final Property<String> threadInclude;
    private final Property<String> shard;
    private final Property<String> group;
    private final Property<String> newSince;
    private final Property<String> tests;
    private final Property<Boolean> annotated;
    private final Property<Boolean> suspects;
    private final Property<String> suspectsFrom;
    private final Property<Boolean> all;
    private final Property<String> failOn;
    private final Property<Boolean> includeConnected;
    private final Property<Boolean> dryRun;
    private final Property<Boolean> githubAnnotations;
    private final Property<String> flakyAnnotation;
    private final Property<String> flakyCategory;
    private final Property<String> jvmArgs;
    private final Property<Boolean> testTaskJvmArgs;

    @Inject
    public FlakeScanExtension(ObjectFactory objects) {
        // Every property has an explicit default: see GradleVersionCompat.property. 0 stands
        // for "not set" where a setting is optional.
        daemon = string(objects, DEFAULT_DAEMON);
        startDaemon = bool(objects, true);
        executable = string(objects, "flakescan");
        techniques = string(objects, "rerun");
        runs = integer(objects, 10);
        runTimeoutSeconds = integer(objects, 0);
        maxRuns = integer(objects, 0);
        maxSeconds = integer(objects, 0);
        seed = integer(objects, 0);
        strategy = string(objects, "");
        shuffleSeeds = integer(objects, 0);
        shuffleMode = string(objects, "");
        shuffleRounds = integer(objects, 0);
        threadStrategy = string(objects, "");
        threadSchedules = integer(objects, 0);
        bugDepth = integer(objects, 0);
        virtualTime = bool(objects, true);
        threadMaxSteps = integer(objects, 0);
        threadInclude = string(objects, "");
        shard = string(objects, "");
        group = string(objects, "");
        newSince = string(objects, "");
        tests = string(objects, "");
        annotated = bool(objects, true);
        suspects = bool(objects, true);
        suspectsFrom = string(objects, "");
        all = bool(objects, false);
        failOn = string(objects, "never");
        includeConnected = bool(objects, false);
        dryRun = bool(objects, false);
        githubAnnotations = bool(objects, false);
        flakyAnnotation = string(objects, "");
        flakyCategory = string(objects, "");
        jvmArgs = string(objects, "");
        testTaskJvmArgs = bool(objects, true);
    }

    private static Property<String> string(ObjectFactory objects, String value) {
        return GradleVersionCompat.property(objects, String.class, value);
    }

    private static Property<Integer> integer(ObjectFactory objects, int value) {
        return GradleVersionCompat.property(objects, Integer.class, value);
    }

    private static Property<Boolean> bool(ObjectFactory objects, boolean value) {
        return GradleVersionCompat.property(objects, Boolean.class, value);
    }

    /** {@code techniques 'rerun', 'order'}: the list form; {@code techniques = 'rerun,order'} also works. */
    public void techniques(Object... values) { techniques.set(joinList(java.util.Arrays.asList(values))); }

    /** {@code tests 'pkg.A#m', 'pkg.B'}. */
    public void tests(Object... values) { tests.set(joinList(java.util.Arrays.asList(values))); }

    /** {@code suspectsFrom 'ci-results', 'old/TEST-x.xml'}. */
    public void suspectsFrom(Object... values) { suspectsFrom.set(joinList(java.util.Arrays.asList(values))); }

    /** {@code threadInclude 'org.example.', 'com.acme.Cache'}; {@code threadInclude = 'org.example.,com.acme.Cache'} also works. */
    public void threadInclude(Object... values) { threadInclude.set(joinList(java.util.Arrays.asList(values))); }

    /** {@code jvmArgs '-Duser.timezone=UTC', '-Xmx1g'}; {@code jvmArgs = '-Duser.timezone=UTC -Xmx1g'} also works. */
    public void jvmArgs(Object... values) {
        List<String> parts = new ArrayList<>();
        for (Object v : values) parts.add(String.valueOf(v).trim());
        jvmArgs.set(String.join(" ", parts));
    }

    private static String joinList(Object value) {
        if (value instanceof Iterable) {
            List<String> parts = new ArrayList<>();
            for (Object o : (Iterable<?>) value) parts.add(String.valueOf(o).trim());
            return String.join(",", parts);
        }
        return value == null ? "" : String.valueOf(value);
    }

    /** Daemon URL. Default {@value #DEFAULT_DAEMON}. */
    public Property<String> getDaemon() { return daemon; }

    /** Start {@code flakescand} (beside the flakescan executable) when none answers at the default address. Default true. */
    public Property<Boolean> getStartDaemon() { return startDaemon; }

    /** The flakescan CLI: a path, or a name looked up on PATH and in $FLAKESCAN_HOME/bin. Default "flakescan". */
    public Property<String> getExecutable() { return executable; }

    /** Comma-separated techniques: rerun, suite, order, nio, nio-isolated-class, nio-isolated-method, shuffle, explore, threads, repair, noise. Default "rerun". */
    public Property<String> getTechniques() { return techniques; }

    /** Runs per test and technique. Default 10. */
    public Property<Integer> getRuns() { return runs; }

    /** Deadline of one run in seconds; 0: the CLI's default (60 s + 10 s per test in the run). Default 0. */
    public Property<Integer> getRunTimeoutSeconds() { return runTimeoutSeconds; }

    /** Budget: total runs of the scan; 0: no limit beyond runs per test. Default 0. */
    public Property<Integer> getMaxRuns() { return maxRuns; }

    /** Budget: wall time of the scan in seconds; 0: no limit. Default 0. */
    public Property<Integer> getMaxSeconds() { return maxSeconds; }

    /** Seed of the randomised orders, schedules and shuffles (technique shuffle's seeds follow from it); 0: the CLI's default seed (1). Larger seeds, such as a CI run id, can be given as -Pflakescan.seed. Default 0. */
    public Property<Integer> getSeed() { return seed; }

    /** Strategy of the explore technique: maxdiff, flakescanner or both; empty: the CLI's default (maxdiff). Default empty. */
    public Property<String> getStrategy() { return strategy; }

    /** Technique shuffle: seeded runs per test on the shuffling JDK, 1 to 100; the seeds follow from {@link #getSeed() seed}. 0: the CLI's default (3). Default 0. */
    public Property<Integer> getShuffleSeeds() { return shuffleSeeds; }

    /** Technique shuffle: "full" (a new permutation for every call of an unspecified-order API) or "one" (one permutation per call site and size); empty: the CLI's default (full). Default empty. */
    public Property<String> getShuffleMode() { return shuffleMode; }

    /** Technique suite: shuffled rounds (a seed each, on the shuffling JDK) after the order rounds, up to 100; 0: none (the CLI's default). Default 0. */
    public Property<Integer> getShuffleRounds() { return shuffleRounds; }

    /** Technique threads: how the controlled scheduler picks the next thread: "pct" (priorities with bugDepth change points), "pos" (partial order sampling) or "random"; empty: the CLI's default (pct). Default empty. */
    public Property<String> getThreadStrategy() { return threadStrategy; }

    /** Technique threads: controlled schedules per test, at most, 1 to 10000; the seeds follow from {@link #getSeed() seed}. 0: the CLI's default (100). Default 0. */
    public Property<Integer> getThreadSchedules() { return threadSchedules; }

    /** Technique threads: PCT's bug depth, 1 to 20. 0: the CLI's default (3). Default 0. */
    public Property<Integer> getBugDepth() { return bugDepth; }

    /** Technique threads: sleeps and timeouts run on the scheduler's virtual clock (true) or wait on the real one (false). Default true. */
    public Property<Boolean> getVirtualTime() { return virtualTime; }

    /** Technique threads: the agent's step limit, 1 to 100000000: scheduling points chosen while the test's threads run together, after which the test runs on uncontrolled and its schedule is no longer exact. 0: the CLI's default (100000). Default 0. */
    public Property<Integer> getThreadMaxSteps() { return threadMaxSteps; }

    /** Technique threads: comma-separated class-name prefixes ("org.example.", "com.acme.Cache"), at most 100; only classes under them are rewritten (never the JDK, JUnit or flakescan's own). Empty: every class of the project (the CLI's default). Default empty. */
    public Property<String> getThreadInclude() { return threadInclude; }

    /** This CI matrix job's share of a sharded scan, "I/N" (empty: the whole selection). Needs group. */
    public Property<String> getShard() { return shard; }

    /** The name every shard of one sharded scan shares, e.g. the CI run id; `flakescan verdicts --group` merges them. */
    public Property<String> getGroup() { return group; }

    /** Scan only the selected tests the CI history never saw on this branch (a pull request's base branch): its new tests. Default empty (all). */
    public Property<String> getNewSince() { return newSince; }

    /** Explicit test ids, comma-separated ("pkg.Class#method" or "pkg.Class"), scanned besides the annotated tests and suspects; given on the command line (-Pflakescan.tests) they are scanned alone unless -Pflakescan.annotated/suspects say otherwise. Default none. */
    public Property<String> getTests() { return tests; }

    /** Scan tests (or classes) annotated with any annotation named FlakyTest. Default true. */
    public Property<Boolean> getAnnotated() { return annotated; }

    /** Scan tests that failed in earlier JUnit XML results (the test task's own results, plus suspectsFrom). Default true. */
    public Property<Boolean> getSuspects() { return suspects; }

    /** More JUnit XML files or directories (comma-separated, relative to the project) to take suspects from. Default none. */
    public Property<String> getSuspectsFrom() { return suspectsFrom; }

    /** Scan every test class of the test task (the nightly job). Default false. */
    public Property<Boolean> getAll() { return all; }

    /** When the task fails: "never", "flaky" (a flaky test was found) or "any" (flaky, or a test could not run). Default "never". A scan that cannot run always fails. */
    public Property<String> getFailOn() { return failOn; }

    /** Let the aggregate flakeScan task also run the connected (device) scans of Android projects. Default false. */
    public Property<Boolean> getIncludeConnected() { return includeConnected; }

    /** Print the flakescan commands instead of running them. Default false. */
    public Property<Boolean> getDryRun() { return dryRun; }

    /** Print GitHub workflow-command annotations; they are also printed when GITHUB_ACTIONS=true, unless -Pflakescan.githubAnnotations=false. Default false. */
    public Property<Boolean> getGithubAnnotations() { return githubAnnotations; }

    /** The annotation flakytest-suggestions.patch puts on each flaky test, fully qualified ("com.acme.Flaky", written without arguments); empty: chosen per test from its framework and the test classpath (AndroidX {@code @FlakyTest(detail = ...)} when the classpath has it, else JUnit 5 {@code @Tag("flaky")} or JUnit 4 {@code @Category(FlakyTests.class)}). Default empty. */
    public Property<String> getFlakyAnnotation() { return flakyAnnotation; }

    /** The JUnit 4 category interface the patch's {@code @Category} names, fully qualified; empty: {@code FlakyTests} in each test's package. The patch adds the interface unless the sources or the classpath have it. Default empty. */
    public Property<String> getFlakyCategory() { return flakyCategory; }

    /**
     * Extra options of the test JVMs, separated by white space (an option cannot contain any),
     * after those taken from the Test task. Default empty.
     */
    public Property<String> getJvmArgs() { return jvmArgs; }

    /**
     * Give the test JVMs the options the Test task gives its own ({@code jvmArgs},
     * {@code systemProperty}, heap sizes, assertions), except a debugger or coverage agent.
     * Default true.
     */
    public Property<Boolean> getTestTaskJvmArgs() { return testTaskJvmArgs; }
}
