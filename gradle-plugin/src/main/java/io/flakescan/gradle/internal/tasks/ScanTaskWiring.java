package io.flakescan.gradle.internal.tasks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.flakescan.gradle.FlakeScanExtension;
import io.flakescan.gradle.internal.compat.GradleVersionCompat;
import io.flakescan.gradle.internal.target.ConnectedVariantTarget;
import io.flakescan.gradle.internal.target.JvmTestTaskTarget;

import org.gradle.api.Action;
import org.gradle.api.Project;
import org.gradle.api.tasks.TaskContainer;
import org.gradle.api.tasks.testing.Test;

/**
 * Which scan tasks a project gets, and how they depend on each other: the aggregate task, one
 * scan per {@link Test} task (java plugin), one per {@code connected<Variant>AndroidTest}
 * task (Android plugins). Tasks are only defined here; {@link GradleVersionCompat#define}
 * creates them when they are needed.
 */
public final class ScanTaskWiring {
    private static final Pattern CONNECTED = Pattern.compile("connected(\\w+)AndroidTest");
    static final String RULE = "Pattern: flakeScan<TestTask>: scans the tests of a Test task for flakiness (io.flakescan)";

    private final Project project;
    private final FlakeScanExtension extension;
    private final String aggregate;
    private final TaskContainer tasks;
    private final GradleVersionCompat compat;
    private final List<String> jvmScans = new ArrayList<>();
    private final List<String> connectedScans = new ArrayList<>();

    /** Scan task names are {@code aggregate} followed by the capitalised name of the scanned task. */
    public ScanTaskWiring(Project project, FlakeScanExtension extension, String aggregate) {
        this.project = project;
        this.extension = extension;
        this.aggregate = aggregate;
        this.tasks = project.getTasks();
        this.compat = new GradleVersionCompat(tasks, RULE);
    }

    /** The aggregate task depends on every JVM scan, and on the connected ones when includeConnected says so. */
    public void registerAggregate() {
        compat.define(aggregate, FlakeScanAggregateTask.class, t -> t.dependsOn((Callable<List<String>>) () -> {
            List<String> deps = new ArrayList<>(jvmScans);
            Object all = project.findProperty("flakescan.includeConnected");
            boolean connected = all != null ? Boolean.parseBoolean(all.toString()) : extension.getIncludeConnected().get();
            if (connected) deps.addAll(connectedScans);
            return deps;
        }));
    }

    /** A scan reads the test tasks' JUnit XML (suspects): in one build it runs after them. */
    public void orderScansAfterTests() {
        GradleVersionCompat.configureEach(tasks.withType(FlakeScanTask.class), scan -> scan.mustRunAfter(tasks.withType(Test.class)));
    }

    /** After the build script: at once when the plugin is applied late (an init script's afterEvaluate). */
    public void afterBuildScript(Runnable action) {
        if (project.getState().getExecuted()) action.run();
        else project.afterEvaluate((Action<Project>) p -> action.run());
    }

    /** {@code flakeScan<TestTask>} for each Test task. */
    public void registerTestTaskScans() {
        for (String testName : tasks.withType(Test.class).getNames()) {
            String scanName = aggregate + capitalize(testName);
            jvmScans.add(scanName);
            compat.define(scanName, FlakeScanTask.class, t -> t.configureFor(new JvmTestTaskTarget(project, testName)));
        }
    }

    /** {@code flakeScanConnected<Variant>AndroidTest} for each connected test task, once per task. */
    public void registerConnectedScans() {
        for (String name : tasks.getNames()) {
            Matcher m = CONNECTED.matcher(name);
            String scanName = aggregate + capitalize(name);
            if (!m.matches() || connectedScans.contains(scanName)) continue;
            connectedScans.add(scanName);
            String variant = m.group(1);
            compat.define(scanName, FlakeScanTask.class, t -> t.configureFor(new ConnectedVariantTarget(project, variant)));
        }
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
