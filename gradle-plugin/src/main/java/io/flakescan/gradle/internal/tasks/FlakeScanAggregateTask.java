package io.flakescan.gradle.internal.tasks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.flakescan.gradle.internal.cli.FlakescanCli;
import io.flakescan.gradle.internal.report.ReportCommand;
import io.flakescan.gradle.internal.settings.ScanSettings;
import io.flakescan.gradle.internal.target.ScanTarget;

import org.gradle.api.DefaultTask;
import org.gradle.api.Task;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.TaskAction;

/**
 * The {@code flakeScan} task: runs every scan task of the project (through its dependencies)
 * and merges their verdicts into one set of reports in build/reports/flakescan/.
 */
public class FlakeScanAggregateTask extends DefaultTask {
    public FlakeScanAggregateTask() {
        setGroup("verification");
        setDescription("Scans the tests of every Test task for flakiness and writes build/reports/flakescan/ (flakescan).");
        getOutputs().upToDateWhen(t -> false);
        getLogger().info("flakescan: created task {}", getPath());
    }

    @OutputDirectory
    public File getReportDir() {
        return new File(ScanTarget.buildDir(getProject()), "reports/flakescan");
    }

    @TaskAction
    public void merge() throws IOException {
        List<File> verdicts = new ArrayList<>();
        Set<File> roots = new LinkedHashSet<>();
        Set<String> classpath = new LinkedHashSet<>();
        for (Task t : getTaskDependencies().getDependencies(this)) {
            if (!(t instanceof FlakeScanTask)) continue;
            FlakeScanTask scan = (FlakeScanTask) t;
            if (scan.getVerdictsFile().isFile()) verdicts.add(scan.getVerdictsFile());
            roots.addAll(scan.getTarget().sourceRoots());
            for (String entry : scan.getTarget().classpath().split(java.util.regex.Pattern.quote(File.pathSeparator)))
                if (!entry.isEmpty()) classpath.add(entry);
        }
        if (verdicts.isEmpty()) {
            getLogger().lifecycle("flakescan: no scan wrote verdicts; nothing to merge");
            return;
        }
        ScanSettings s = ScanSettings.read(getProject());
        Files.createDirectories(getReportDir().toPath());
        String exe = FlakescanCli.locate(s.executable, getProject().getProjectDir()).getPath();
        ReportCommand.run(ReportCommand.command(exe, verdicts, getReportDir(), new ArrayList<>(roots),
                String.join(File.pathSeparator, classpath), s),
                getLogger(), s, getReportDir(), getProject().getProjectDir(), true);
    }
}
