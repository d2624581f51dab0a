package io.flakescan.gradle;

import java.util.ArrayList;
import java.util.List;

import javax.inject.Inject;

import org.gradle.api.model.ObjectFactory;
import org.gradle.api.provider.Property;

/**
 * The {@code flakeScan { }} block. Every setting is a lazy {@link Property} read only when a
 * scan task runs, and each can be overridden from the command line with
 * {@code -Pflakescan.<name>=value} (the command line wins). Lists are comma-separated strings
 * so that the same text works in the build script and on the command line; the setters also
 * take Groovy lists ({@code techniques = ['rerun', 'order']}).
 *
 * <p>Only String, Integer, Long and Boolean properties are used: they behave the same from
 * Gradle 4.4 to current releases ({@code ListProperty} changed its type hierarchy in 5.0).
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
    private final Property<Long> seed;
    private final Property<String> tests;
    private final Property<Boolean> annotated;
    private final Property<Boolean> suspects;
    private final Property<String> suspectsFrom;
    private final Property<Boolean> all;
    private final Property<String> failOn;
    private final Property<Boolean> includeConnected;
    private final Property<Boolean> dryRun;
    private final Property<Boolean> githubAnnotations;

    @Inject
    public FlakeScanExtension(ObjectFactory objects) {
        daemon = string(objects, DEFAULT_DAEMON);
        startDaemon = bool(objects, true);
        executable = string(objects, "flakescan");
        techniques = string(objects, "rerun");
        runs = objects.property(Integer.class);
        runs.set(10);
        runTimeoutSeconds = objects.property(Integer.class);
        maxRuns = objects.property(Integer.class);
        maxSeconds = objects.property(Integer.class);
        seed = objects.property(Long.class);
        tests = string(objects, "");
        annotated = objects.property(Boolean.class);
        suspects = objects.property(Boolean.class);
        suspectsFrom = string(objects, "");
        all = bool(objects, false);
        failOn = string(objects, "never");
        includeConnected = bool(objects, false);
        dryRun = bool(objects, false);
        githubAnnotations = objects.property(Boolean.class);
    }

    private static Property<String> string(ObjectFactory objects, String value) {
        Property<String> p = objects.property(String.class);
        p.set(value);
        return p;
    }

    private static Property<Boolean> bool(ObjectFactory objects, boolean value) {
        Property<Boolean> p = objects.property(Boolean.class);
        p.set(value);
        return p;
    }

    static String joinList(Object value) {
        if (value instanceof Iterable) {
            List<String> parts = new ArrayList<>();
            for (Object o : (Iterable<?>) value) parts.add(String.valueOf(o).trim());
            return String.join(",", parts);
        }
        return value == null ? "" : String.valueOf(value);
    }

    /** Daemon URL. Default {@value #DEFAULT_DAEMON}. */
    public Property<String> getDaemon() { return daemon; }
    public void setDaemon(String value) { daemon.set(value); }

    /** Start {@code flakescand} (beside the flakescan executable) when none answers at the default address. Default true. */
    public Property<Boolean> getStartDaemon() { return startDaemon; }
    public void setStartDaemon(boolean value) { startDaemon.set(value); }

    /** The flakescan CLI: a path, or a name looked up on PATH and in $FLAKESCAN_HOME/bin. Default "flakescan". */
    public Property<String> getExecutable() { return executable; }
    public void setExecutable(Object value) { executable.set(String.valueOf(value)); }

    /** Comma-separated techniques: rerun, noise, order, nio, explore, trace, repair. Default "rerun". */
    public Property<String> getTechniques() { return techniques; }
    public void setTechniques(Object value) { techniques.set(joinList(value)); }

    /** Runs per test and technique. Default 10. */
    public Property<Integer> getRuns() { return runs; }
    public void setRuns(int value) { runs.set(value); }

    /** Deadline of one run in seconds; unset: the CLI's default (60 s + 10 s per test in the run). */
    public Property<Integer> getRunTimeoutSeconds() { return runTimeoutSeconds; }
    public void setRunTimeoutSeconds(int value) { runTimeoutSeconds.set(value); }

    /** Budget: total runs of the scan; unset: no limit beyond runs per test. */
    public Property<Integer> getMaxRuns() { return maxRuns; }
    public void setMaxRuns(int value) { maxRuns.set(value); }

    /** Budget: wall time of the scan in seconds; unset: no limit. */
    public Property<Integer> getMaxSeconds() { return maxSeconds; }
    public void setMaxSeconds(int value) { maxSeconds.set(value); }

    /** Seed of the randomised orders and schedules; unset: the daemon picks one and records it. */
    public Property<Long> getSeed() { return seed; }
    public void setSeed(long value) { seed.set(value); }

    /** Explicit test ids, comma-separated ("pkg.Class#method" or "pkg.Class"). When set, annotated and suspects default to false. Default none. */
    public Property<String> getTests() { return tests; }
    public void setTests(Object value) { tests.set(joinList(value)); }

    /** Scan tests (or classes) annotated with any annotation named FlakyTest. Default: true when no explicit tests are given. */
    public Property<Boolean> getAnnotated() { return annotated; }
    public void setAnnotated(boolean value) { annotated.set(value); }

    /** Scan tests that failed in earlier JUnit XML results (the test task's own results, plus suspectsFrom). Default: true when no explicit tests are given. */
    public Property<Boolean> getSuspects() { return suspects; }
    public void setSuspects(boolean value) { suspects.set(value); }

    /** More JUnit XML files or directories (comma-separated, relative to the project) to take suspects from. Default none. */
    public Property<String> getSuspectsFrom() { return suspectsFrom; }
    public void setSuspectsFrom(Object value) { suspectsFrom.set(joinList(value)); }

    /** Scan every test class of the test task (the nightly job). Default false. */
    public Property<Boolean> getAll() { return all; }
    public void setAll(boolean value) { all.set(value); }

    /** When the task fails: "never", "flaky" (a flaky test was found) or "any" (flaky, or a test could not run). Default "never". A scan that cannot run always fails. */
    public Property<String> getFailOn() { return failOn; }
    public void setFailOn(String value) { failOn.set(value); }

    /** Let the aggregate flakeScan task also run the connected (device) scans of Android projects. Default false. */
    public Property<Boolean> getIncludeConnected() { return includeConnected; }
    public void setIncludeConnected(boolean value) { includeConnected.set(value); }

    /** Print the flakescan commands instead of running them. Default false. */
    public Property<Boolean> getDryRun() { return dryRun; }
    public void setDryRun(boolean value) { dryRun.set(value); }

    /** Print GitHub workflow-command annotations. Default: true when GITHUB_ACTIONS=true. */
    public Property<Boolean> getGithubAnnotations() { return githubAnnotations; }
    public void setGithubAnnotations(boolean value) { githubAnnotations.set(value); }
}
