package io.flakescan.gradle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.gradle.api.Action;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.tasks.TaskContainer;
import org.gradle.api.tasks.testing.Test;

/**
 * Plugin {@code io.flakescan}. With the {@code java} plugin: one {@code flakeScan<TestTask>}
 * task per {@link Test} task and the aggregate {@code flakeScan}. With an Android application
 * or library plugin: {@code flakeScanConnected<Variant>AndroidTest} per connected test task.
 * Nothing is scanned, read or started at configuration time; tasks are registered lazily
 * (see {@link GradleCompat} for how on Gradle before 4.9).
 */
public class FlakeScanPlugin implements Plugin<Project> {
    public static final String AGGREGATE = "flakeScan";
    private static final Pattern CONNECTED = Pattern.compile("connected(\\w+)AndroidTest");

    /** Task definitions waiting for the task rule (Gradle before 4.9). */
    private final Map<String, Action<Task>> pending = new LinkedHashMap<>();
    private final List<String> jvmScans = new ArrayList<>();
    private final List<String> connectedScans = new ArrayList<>();

    @Override
    public void apply(Project project) {
        project.getExtensions().create("flakeScan", FlakeScanExtension.class, project.getObjects());
        TaskContainer tasks = project.getTasks();
        if (!GradleCompat.hasLazyTasks()) {
            tasks.addRule("Pattern: flakeScan<TestTask>: scans the tests of a Test task for flakiness (io.flakescan)", name -> {
                Action<Task> action = pending.remove(name);
                if (action == null) return;
                Class<? extends Task> type = name.equals(AGGREGATE) ? FlakeScanAggregateTask.class : FlakeScanTask.class;
                action.execute(tasks.create(name, type));
            });
        }
        define(tasks, AGGREGATE, FlakeScanAggregateTask.class, t -> t.dependsOn((Callable<List<String>>) () -> {
            List<String> deps = new ArrayList<>(jvmScans);
            Object all = project.findProperty("flakescan.includeConnected");
            boolean connected = all != null ? Boolean.parseBoolean(all.toString())
                    : project.getExtensions().getByType(FlakeScanExtension.class).getIncludeConnected().get();
            if (connected) deps.addAll(connectedScans);
            return deps;
        }));

        // A scan reads the test tasks' JUnit XML (suspects): in one build it runs after them.
        GradleCompat.configureEach(tasks.withType(FlakeScanTask.class), scan -> scan.mustRunAfter(tasks.withType(Test.class)));

        project.getPluginManager().withPlugin("java", p -> whenEvaluated(project, x -> {
            for (String testName : tasks.withType(Test.class).getNames()) {
                String scanName = AGGREGATE + capitalize(testName);
                jvmScans.add(scanName);
                define(tasks, scanName, FlakeScanTask.class,
                        t -> ((FlakeScanTask) t).forTestTask((Test) tasks.getByName(testName)));
            }
        }));
        for (String android : new String[] {"com.android.application", "com.android.library"}) {
            project.getPluginManager().withPlugin(android, p -> whenEvaluated(project, x -> {
                for (String name : tasks.getNames()) {
                    Matcher m = CONNECTED.matcher(name);
                    String scanName = AGGREGATE + capitalize(name);
                    if (!m.matches() || connectedScans.contains(scanName)) continue;
                    connectedScans.add(scanName);
                    String variant = m.group(1);
                    define(tasks, scanName, FlakeScanTask.class, t -> ((FlakeScanTask) t).forConnectedVariant(variant));
                }
            }));
        }
    }

    /** After the build script: at once when the plugin is applied late (an init script's afterEvaluate). */
    private static void whenEvaluated(Project project, Action<Project> action) {
        if (project.getState().getExecuted()) action.execute(project);
        else project.afterEvaluate(action);
    }

    private void define(TaskContainer tasks, String name, Class<? extends Task> type, Action<Task> action) {
        if (GradleCompat.hasLazyTasks()) GradleCompat.register(tasks, name, type, action);
        else pending.put(name, action);
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
