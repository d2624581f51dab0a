package io.flakescan.gradle.internal.settings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import io.flakescan.gradle.FlakeScanExtension;

import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.provider.Property;

/**
 * The settings of one scan, read once at execution time from the extension and the
 * {@code -Pflakescan.*} project properties (which win), and validated with messages that
 * name the setting, where its value came from and what is expected.
 */
public final class ScanSettings {
    // The daemon's technique table (daemon/scan/technique_table.cpp, GET /v1/health), in the order a
    // scan runs them; the functional test compares the two.
    public static final List<String> TECHNIQUES = Arrays.asList("rerun", "suite", "order", "nio", "nio-isolated-class",
            "nio-isolated-method", "shuffle", "explore", "threads", "repair", "noise");
    /** Techniques that need the local JVM backend: a device cannot run them. */
    public static final List<String> LOCAL_ONLY_TECHNIQUES = Arrays.asList("shuffle", "threads");
    private static final List<String> SHUFFLE_MODES = Arrays.asList("full", "one");
    private static final List<String> THREAD_STRATEGIES = Arrays.asList("pct", "pos", "random");
    private static final List<String> STRATEGIES = Arrays.asList("maxdiff", "flakescanner", "both");
    private static final List<String> FAIL_ON = Arrays.asList("never", "flaky", "any");
    // Test ids as the daemon accepts them: a Java binary class name, optionally #method
    // (methods may carry a parameter suffix such as name[1]).
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");
    // A class-name prefix of technique threads (daemon/core/class_prefix.hpp): a class name, or one with a trailing dot.
    private static final Pattern CLASS_PREFIX = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*\\.?");
    private static final Pattern TEST_ID = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*(#[^,#\\s][^,#]*)?");

    public final String daemon;
    public final boolean startDaemon;
    public final String executable;
    public final List<String> techniques;
    public final int runs;
    public final Integer runTimeoutSeconds;
    public final Integer maxRuns;
    public final Integer maxSeconds;
    public final Long seed;
    public final String strategy;
    public final Integer shuffleSeeds;
    public final String shuffleMode;
    public final Integer shuffleRounds;
    public final String threadStrategy;
    public final Integer threadSchedules;
    public final Integer bugDepth;
    public final boolean virtualTime;
    public final Integer threadMaxSteps;
    public final List<String> threadInclude;
    public final String shard;
    public final String group;
    public final String newSince;
    public final List<String> tests;
    public final boolean annotated;
    public final boolean suspects;
    public final List<String> suspectsFrom;
    public final boolean all;
    public final String failOn;
    public final boolean includeConnected;
    public final boolean dryRun;
    public final boolean githubAnnotations;
    public final String flakyAnnotation;
    public final String flakyCategory;
    public final List<String> jvmArgs;
    public final boolean testTaskJvmArgs;

    private final Project project;

    private ScanSettings(Project project, FlakeScanExtension ext) {
        this.project = project;
        daemon = url(text("daemon", ext.getDaemon()));
        startDaemon = bool("startDaemon", ext.getStartDaemon());
        executable = nonEmpty("executable", text("executable", ext.getExecutable()));
        techniques = techniques(text("techniques", ext.getTechniques()));
        runs = integer("runs", ext.getRuns(), 1, 10000);
        runTimeoutSeconds = optionalInteger("runTimeoutSeconds", ext.getRunTimeoutSeconds(), 1, 24 * 3600);
        maxRuns = optionalInteger("maxRuns", ext.getMaxRuns(), 1, 10_000_000);
        maxSeconds = optionalInteger("maxSeconds", ext.getMaxSeconds(), 1, 7 * 24 * 3600);
        seed = seed(ext.getSeed());
        String chosen = text("strategy", ext.getStrategy());
        strategy = chosen.isEmpty() ? "" : oneOf("strategy", chosen, STRATEGIES);
        shuffleSeeds = optionalInteger("shuffleSeeds", ext.getShuffleSeeds(), 1, 100);
        String mode = text("shuffleMode", ext.getShuffleMode());
        shuffleMode = mode.isEmpty() ? "" : oneOf("shuffleMode", mode, SHUFFLE_MODES);
        shuffleRounds = optionalInteger("shuffleRounds", ext.getShuffleRounds(), 0, 100);
        String threads = text("threadStrategy", ext.getThreadStrategy());
        threadStrategy = threads.isEmpty() ? "" : oneOf("threadStrategy", threads, THREAD_STRATEGIES);
        threadSchedules = optionalInteger("threadSchedules", ext.getThreadSchedules(), 1, 10000);
        bugDepth = optionalInteger("bugDepth", ext.getBugDepth(), 1, 20);
        virtualTime = bool("virtualTime", ext.getVirtualTime());
        threadMaxSteps = optionalInteger("threadMaxSteps", ext.getThreadMaxSteps(), 1, 100_000_000);
        threadInclude = classPrefixes(text("threadInclude", ext.getThreadInclude()));
        shard = shard(text("shard", ext.getShard()));
        group = group(text("group", ext.getGroup()));
        newSince = text("newSince", ext.getNewSince());
        if (newSince.length() > 255) throw invalid("newSince", newSince, "a branch name of at most 255 characters");
        if (!shard.isEmpty() && group.isEmpty())
            throw invalid("shard", shard, "a group too (flakeScan.group or -Pflakescan.group, e.g. the CI run id)");
        tests = testIds(text("tests", ext.getTests()));
        // -Pflakescan.tests on the command line means "these tests": the other selections then
        // apply only when the command line asks for them too.
        boolean narrowed = project.hasProperty("flakescan.tests") && !tests.isEmpty();
        annotated = narrowed && !project.hasProperty("flakescan.annotated") ? false : bool("annotated", ext.getAnnotated());
        suspects = narrowed && !project.hasProperty("flakescan.suspects") ? false : bool("suspects", ext.getSuspects());
        suspectsFrom = list(text("suspectsFrom", ext.getSuspectsFrom()));
        all = bool("all", ext.getAll());
        failOn = oneOf("failOn", text("failOn", ext.getFailOn()), FAIL_ON);
        includeConnected = bool("includeConnected", ext.getIncludeConnected());
        dryRun = bool("dryRun", ext.getDryRun());
        githubAnnotations = project.hasProperty("flakescan.githubAnnotations") ? bool("githubAnnotations", ext.getGithubAnnotations())
                : bool("githubAnnotations", ext.getGithubAnnotations()) || "true".equals(System.getenv("GITHUB_ACTIONS"));
        flakyAnnotation = className("flakyAnnotation", text("flakyAnnotation", ext.getFlakyAnnotation()));
        flakyCategory = className("flakyCategory", text("flakyCategory", ext.getFlakyCategory()));
        jvmArgs = jvmOptions(text("jvmArgs", ext.getJvmArgs()));
        testTaskJvmArgs = bool("testTaskJvmArgs", ext.getTestTaskJvmArgs());
    }

    public static ScanSettings read(Project project) {
        return new ScanSettings(project, project.getExtensions().getByType(FlakeScanExtension.class));
    }

    private String source(String name) {
        return project.hasProperty("flakescan." + name) ? "-Pflakescan." + name : "flakeScan." + name;
    }

    private GradleException invalid(String name, Object value, String expected) {
        return new GradleException("flakescan: invalid value '" + value + "' for " + name + " (from " + source(name)
                + "): expected " + expected);
    }

    private String text(String name, Property<?> property) {
        Object p = project.findProperty("flakescan." + name);
        if (p != null) return p.toString().trim();
        Object v = property.getOrNull();
        return v == null ? "" : v.toString().trim();
    }

    private boolean bool(String name, Property<Boolean> property) {
        String v = text(name, property).toLowerCase();
        if (v.equals("true")) return true;
        if (v.equals("false")) return false;
        throw invalid(name, v, "true or false");
    }

    private int integer(String name, Property<Integer> property, int min, int max) {
        String v = text(name, property);
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(name, v, "an integer from " + min + " to " + max);
    }

    /** 0 or empty: not set. */
    /** "" or I/N with 1 <= I <= N <= 1000, as the daemon accepts. */
    private String shard(String v) {
        if (v.isEmpty()) return v;
        String[] parts = v.split("/", -1);
        try {
            if (parts.length == 2) {
                int i = Integer.parseInt(parts[0]), n = Integer.parseInt(parts[1]);
                if (i >= 1 && i <= n && n <= 1000) return i + "/" + n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid("shard", v, "I/N with 1 <= I <= N <= 1000, e.g. 2/4");
    }

    /** "" or 1-128 characters of A-Z a-z 0-9 . _ : - */
    private String group(String v) {
        if (v.isEmpty() || v.matches("[A-Za-z0-9._:-]{1,128}")) return v;
        throw invalid("group", v, "1-128 characters of A-Z a-z 0-9 . _ : -");
    }

    private Integer optionalInteger(String name, Property<Integer> property, int min, int max) {
        String v = text(name, property);
        return v.isEmpty() || v.equals("0") ? null : integer(name, property, min, max);
    }

    private Long seed(Property<Integer> property) {
        String v = text("seed", property);
        if (v.isEmpty() || v.equals("0")) return null;
        try {
            long n = Long.parseLong(v);
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        // The CLI takes an unsigned 64-bit seed; a CI run id (github.run_id) fits.
        throw invalid("seed", v, "a positive integer up to " + Long.MAX_VALUE + " (0: the CLI's default)");
    }

    private String nonEmpty(String name, String v) {
        if (v.isEmpty()) throw invalid(name, v, "a non-empty value");
        return v;
    }

    private String url(String v) {
        if (!v.matches("https?://[^\\s/]+(/\\S*)?")) throw invalid("daemon", v, "a URL such as " + FlakeScanExtension.DEFAULT_DAEMON);
        return v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
    }

    /** Empty, or a fully qualified class name. */
    private String className(String name, String v) {
        if (!v.isEmpty() && !CLASS_NAME.matcher(v).matches()) throw invalid(name, v, "a class name such as com.acme.Flaky");
        return v;
    }

    /** The patch options of `flakescan report`. */
    public List<String> patchOptions() {
        List<String> out = new ArrayList<>();
        if (!flakyAnnotation.isEmpty()) out.addAll(Arrays.asList("--flaky-annotation", flakyAnnotation));
        if (!flakyCategory.isEmpty()) out.addAll(Arrays.asList("--flaky-category", flakyCategory));
        return out;
    }

    private String oneOf(String name, String v, List<String> allowed) {
        if (!allowed.contains(v)) throw invalid(name, v, "one of " + String.join(", ", allowed));
        return v;
    }

    private static List<String> list(String v) {
        List<String> out = new ArrayList<>();
        for (String part : v.split(",")) {
            String t = part.trim();
            if (!t.isEmpty()) out.add(t);
        }
        return out;
    }

    /** White-space separated JVM options, each starting with '-'. */
    private List<String> jvmOptions(String v) {
        List<String> out = new ArrayList<>();
        for (String part : v.trim().split("\\s+")) {
            if (part.isEmpty()) continue;
            if (!part.startsWith("-")) throw invalid("jvmArgs", part, "JVM options such as -Duser.timezone=UTC, separated by spaces");
            out.add(part);
        }
        return Collections.unmodifiableList(out);
    }

    private List<String> techniques(String v) {
        List<String> out = list(v);
        if (out.isEmpty()) throw invalid("techniques", v, "at least one of " + String.join(", ", TECHNIQUES));
        for (String t : out)
            if (!TECHNIQUES.contains(t)) throw invalid("techniques", t, "one of " + String.join(", ", TECHNIQUES));
        return Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(out)));
    }

    /**
     * Technique threads' class-name prefixes, as the CLI (--thread-include) and the daemon
     * (threads.include) take them: dotted Java names, a trailing dot allowed, at most 256
     * characters each and 100 in all.
     */
    private List<String> classPrefixes(String v) {
        Set<String> out = new LinkedHashSet<>();
        for (String p : list(v)) {
            if (p.length() > 256 || !CLASS_PREFIX.matcher(p).matches())
                throw invalid("threadInclude", p, "class-name prefixes such as org.example. or com.acme.Cache, comma-separated");
            out.add(p);
        }
        if (out.size() > 100) throw invalid("threadInclude", out.size() + " prefixes", "at most 100 class-name prefixes");
        return Collections.unmodifiableList(new ArrayList<>(out));
    }

    private List<String> testIds(String v) {
        Set<String> out = new LinkedHashSet<>();
        for (String id : list(v)) {
            if (!TEST_ID.matcher(id).matches()) throw invalid("tests", id, "test ids like com.example.FooTest#bar or com.example.FooTest");
            out.add(id);
        }
        return Collections.unmodifiableList(new ArrayList<>(out));
    }

    /** True when the CLI should be left to find (or start) the daemon at the default address. */
    public boolean cliStartsDaemon() {
        return startDaemon && daemon.equals(FlakeScanExtension.DEFAULT_DAEMON);
    }
}
