package io.flakescan.gradle.internal.target;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.flakescan.gradle.internal.settings.ScanSettings;

import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.logging.Logger;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;

/**
 * What one scan task scans, and where its inputs are: the tests of a JVM {@code Test} task on
 * the local JVM backend ({@link JvmTestTaskTarget}) or the connected (instrumented) tests of an
 * Android variant on the ADB backend ({@link ConnectedVariantTarget}). Everything but
 * {@link #configure} runs when the scan task runs.
 */
public abstract class ScanTarget {
    protected final Project project;

    protected ScanTarget(Project project) {
        this.project = project;
    }

    /** At configuration time: the scan task's description and dependencies. */
    public abstract void configure(Task scanTask);

    /** The scan's folder under build/reports/flakescan/. */
    public abstract String reportDirName();

    /** What the messages call it: the Test task's path, or connected&lt;Variant&gt;AndroidTest. */
    public abstract String subject();

    /** The daemon backend: "local" or "adb". */
    public abstract String backend();

    /** The arguments of {@code flakescan scan} that say what to run: the classpath, or the APKs. */
    public abstract List<String> backendArguments();

    /** The settings' techniques that this backend can run. */
    public abstract List<String> techniques(ScanSettings s, Logger logger);

    /** The options of the test JVMs (none on a device). */
    public abstract List<String> jvmArgs(ScanSettings s, Logger logger);

    /** Where the compiled test classes are. */
    public abstract List<File> classDirs();

    /** Where the test runs' own JUnit XML results are (suspects). */
    public abstract List<File> defaultResults();

    /** The test classpath, ':'-joined; empty for a connected scan. */
    public abstract String classpath();

    /** Where test sources live, for the reports' file and line of each test. */
    public List<File> sourceRoots() {
        Set<File> roots = new LinkedHashSet<>();
        Object sets = project.findProperty("sourceSets");
        if (sets instanceof SourceSetContainer) {
            Map<String, SourceSet> byName = new TreeMap<>(((SourceSetContainer) sets).getAsMap());
            for (SourceSet ss : byName.values()) {
                roots.addAll(ss.getAllJava().getSrcDirs());
                roots.add(project.file("src/" + ss.getName() + "/kotlin"));
            }
        }
        for (String d : Arrays.asList("src/test/java", "src/test/kotlin", "src/androidTest/java", "src/androidTest/kotlin"))
            roots.add(project.file(d));
        List<File> out = new ArrayList<>();
        for (File f : roots) if (f.isDirectory()) out.add(f);
        return out;
    }

    public static File buildDir(Project p) {
        return p.getLayout().getBuildDirectory().get().getAsFile();
    }
}
