package io.flakescan.gradle;

import io.flakescan.gradle.internal.tasks.ScanTaskWiring;

import org.gradle.api.Plugin;
import org.gradle.api.Project;

/**
 * Plugin {@code io.flakescan}. With the {@code java} plugin: one {@code flakeScan<TestTask>}
 * task per {@code Test} task and the aggregate {@code flakeScan}. With an Android application
 * or library plugin: {@code flakeScanConnected<Variant>AndroidTest} per connected test task.
 * Nothing is scanned, read or started at configuration time; tasks are registered lazily.
 *
 * <p>Public API, with {@link FlakeScanExtension}; the work is done under
 * {@code io.flakescan.gradle.internal}, which may change.
 */
public class FlakeScanPlugin implements Plugin<Project> {
    public static final String AGGREGATE = "flakeScan";
    private static final String EXTENSION = "flakeScan";

    @Override
    public void apply(Project project) {
        FlakeScanExtension extension = project.getExtensions().create(EXTENSION, FlakeScanExtension.class, project.getObjects());
        ScanTaskWiring wiring = new ScanTaskWiring(project, extension, AGGREGATE);
        wiring.registerAggregate();
        wiring.orderScansAfterTests();
        project.getPluginManager().withPlugin("java", p -> wiring.afterBuildScript(wiring::registerTestTaskScans));
        for (String android : new String[] {"com.android.application", "com.android.library"})
            project.getPluginManager().withPlugin(android, p -> wiring.afterBuildScript(wiring::registerConnectedScans));
    }
}
