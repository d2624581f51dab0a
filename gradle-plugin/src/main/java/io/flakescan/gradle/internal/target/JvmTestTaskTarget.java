package io.flakescan.gradle.internal.target;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.flakescan.gradle.internal.settings.ScanSettings;

import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.FileCollection;
import org.gradle.api.logging.Logger;
import org.gradle.api.tasks.testing.Test;

/** The tests of one Gradle {@link Test} task, scanned on the local JVM backend. */
public final class JvmTestTaskTarget extends ScanTarget {
    private final String testTaskName;

    public JvmTestTaskTarget(Project project, String testTaskName) {
        super(project);
        this.testTaskName = testTaskName;
    }

    private Test testTask() {
        return (Test) project.getTasks().getByName(testTaskName);
    }

    @Override
    public void configure(Task scanTask) {
        Test test = testTask();
        scanTask.setDescription("Scans the tests of " + test.getPath() + " for flakiness (flakescan).");
        scanTask.dependsOn(test.getClasspath());
    }

    @Override
    public String reportDirName() {
        return testTaskName;
    }

    @Override
    public String subject() {
        return testTask().getPath();
    }

    @Override
    public String backend() {
        return "local";
    }

    @Override
    public List<String> backendArguments() {
        return Arrays.asList("--classpath", classpath());
    }

    @Override
    public List<String> techniques(ScanSettings s, Logger logger) {
        return s.techniques;
    }

    /**
     * The Test task's options (as `gradle test` starts its JVMs) unless testTaskJvmArgs is
     * false, then the jvmArgs setting. Left out of the Test task's: a debugger agent
     * (flakescan's runner JVM carries its own) and a coverage agent (it would add flakescan's
     * runs to the build's coverage).
     */
    @Override
    public List<String> jvmArgs(ScanSettings s, Logger logger) {
        List<String> out = new ArrayList<>();
        if (s.testTaskJvmArgs) {
            for (String arg : testTask().getAllJvmArgs()) {
                if (isAgentToLeaveOut(arg)) logger.info("flakescan: the test JVMs do not get {} of {}", arg, subject());
                else out.add(arg);
            }
        }
        out.addAll(s.jvmArgs);
        return out;
    }

    static boolean isAgentToLeaveOut(String arg) {
        return arg.startsWith("-agentlib:jdwp") || arg.startsWith("-Xrunjdwp") || arg.equals("-Xdebug")
                || (arg.startsWith("-javaagent:") && arg.contains("jacoco"));
    }

    @Override
    public List<File> classDirs() {
        return new ArrayList<>(testTask().getTestClassesDirs().getFiles());
    }

    @Override
    public List<File> defaultResults() {
        return Collections.singletonList(new File(buildDir(project), "test-results/" + testTaskName));
    }

    @Override
    public String classpath() {
        FileCollection cp = testTask().getClasspath();
        List<String> parts = new ArrayList<>();
        for (File f : cp.getFiles()) if (f.exists()) parts.add(f.getAbsolutePath());
        return String.join(File.pathSeparator, parts);
    }
}
