package io.flakescan.gradle.internal.tasks;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Collections;
import java.util.List;

import io.flakescan.gradle.internal.cli.FlakescanCli;
import io.flakescan.gradle.internal.cli.ScanCommand;
import io.flakescan.gradle.internal.report.EmptyVerdictsFile;
import io.flakescan.gradle.internal.report.ReportCommand;
import io.flakescan.gradle.internal.selection.TestSelection;
import io.flakescan.gradle.internal.settings.ScanSettings;
import io.flakescan.gradle.internal.target.ScanTarget;

import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.TaskAction;

/**
 * Scans the tests of one {@link ScanTarget} (a Gradle {@code Test} task on the local JVM
 * backend, or the connected tests of one Android variant on the ADB backend) through the
 * flakescan CLI: {@code flakescan scan} writes verdicts.json, {@code flakescan report} writes
 * every other report next to it. Never up to date: each scan observes new runs.
 */
public class FlakeScanTask extends DefaultTask {
    private ScanTarget target;
    private File reportDir;

    public FlakeScanTask() {
        setGroup("verification");
        getOutputs().upToDateWhen(t -> false);
        getLogger().info("flakescan: created task {}", getPath());
    }

    /** At configuration time: what this task scans. */
    void configureFor(ScanTarget scanned) {
        target = scanned;
        target.configure(this);
        reportDir = new File(ScanTarget.buildDir(getProject()), "reports/flakescan/" + target.reportDirName());
    }

    @OutputDirectory
    public File getReportDir() {
        return reportDir;
    }

    @Internal
    File getVerdictsFile() {
        return new File(reportDir, "verdicts.json");
    }

    @Internal
    ScanTarget getTarget() {
        return target;
    }

    @TaskAction
    public void scan() throws IOException {
        ScanSettings s = ScanSettings.read(getProject());
        Files.createDirectories(reportDir.toPath());
        File verdicts = getVerdictsFile();
        Files.deleteIfExists(verdicts.toPath());

        List<String> ids = TestSelection.select(s, target, getProject(), getLogger());
        List<String> techniques = target.techniques(s, getLogger());
        String exe = s.dryRun ? s.executable : FlakescanCli.locate(s.executable, getProject().getProjectDir()).getPath();
        List<String> backendArguments = target.backendArguments();
        File idsFile = new File(reportDir, "tests.txt");
        Files.write(idsFile.toPath(), ids, StandardCharsets.UTF_8);
        List<String> scan = ScanCommand.command(exe, backendArguments, idsFile, techniques, verdicts, s, target.jvmArgs(s, getLogger()));
        List<String> report = ReportCommand.command(exe, Collections.singletonList(verdicts), reportDir, target.sourceRoots(),
                target.classpath(), s);
        if (s.githubAnnotations) report.add("--github-annotations");

        if (s.dryRun) {
            getLogger().lifecycle("flakescan (dry run): {}", String.join(" ", scan));
            getLogger().lifecycle("flakescan (dry run): {}", String.join(" ", report));
            return;
        }
        if (ids.isEmpty()) {
            getLogger().lifecycle("flakescan: nothing to scan in {}: no test annotated @FlakyTest, no failure in earlier"
                    + " results, no -Pflakescan.tests; writing empty reports", target.subject());
            EmptyVerdictsFile.write(verdicts, target.backend(), techniques);
        } else {
            getLogger().lifecycle("flakescan: scanning {} test id(s) of {} with {} ({} runs each)", ids.size(), target.subject(),
                    String.join(",", techniques), s.runs);
            // Progress comes from the CLI on stderr while it waits for the daemon.
            FlakescanCli.Result r = FlakescanCli.run(scan, getProject().getProjectDir(),
                    line -> getLogger().lifecycle(line), line -> getLogger().lifecycle(line));
            if (r.exitCode != 0 || !verdicts.isFile())
                throw new GradleException("flakescan: the scan of " + target.subject() + " could not run: " + r.lastError());
        }
        ReportCommand.run(report, getLogger(), s, reportDir, getProject().getProjectDir(), !isAggregated());
    }

    /** Under the aggregate flakeScan task the failure policy is applied once, after merging. */
    private boolean isAggregated() {
        boolean aggregated = false;
        for (Task t : getProject().getGradle().getTaskGraph().getAllTasks())
            aggregated |= t instanceof FlakeScanAggregateTask && t.getProject() == getProject();
        return aggregated;
    }
}
