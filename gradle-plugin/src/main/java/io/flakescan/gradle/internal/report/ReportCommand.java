package io.flakescan.gradle.internal.report;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.flakescan.gradle.internal.cli.FlakescanCli;
import io.flakescan.gradle.internal.settings.ScanSettings;

import org.gradle.api.GradleException;
import org.gradle.api.logging.Logger;

/**
 * {@code flakescan report}: writes every report from one or more verdict files (no report
 * format is written in Java). Running it prints the counts, where the reports are, and
 * applies the failure policy (failOn).
 */
public final class ReportCommand {
    // The CLI's summary line (daemon/app/cli_report.cpp): new counts go after these three.
    private static final Pattern REPORT_COUNTS = Pattern.compile("flakescan report: (\\d+) flaky, (\\d+) not flaky, (\\d+) could not run");

    private ReportCommand() {}

    /** The test classpath goes to the report too: the patch uses only annotations it has. */
    public static List<String> command(String exe, List<File> verdicts, File outDir, List<File> roots, String classpath, ScanSettings s) {
        List<String> c = new ArrayList<>(Arrays.asList(exe, "report"));
        for (File v : verdicts) c.addAll(Arrays.asList("--verdicts", v.getPath()));
        c.addAll(Arrays.asList("--out-dir", outDir.getPath()));
        for (File r : roots) c.addAll(Arrays.asList("--source-root", r.getPath()));
        if (!classpath.isEmpty()) c.addAll(Arrays.asList("--classpath", classpath));
        c.addAll(s.patchOptions());
        return c;
    }

    /** Runs `flakescan report`, prints annotations and counts, applies the failure policy when asked. */
    public static void run(List<String> command, Logger logger, ScanSettings s, File outDir, File workDir, boolean applyPolicy) {
        int[] counts = new int[3];
        boolean[] seen = {false};
        FlakescanCli.Result r = FlakescanCli.run(command, workDir, logger::quiet, line -> {
            Matcher m = REPORT_COUNTS.matcher(line);
            if (m.find()) {
                for (int i = 0; i < 3; i++) counts[i] = Integer.parseInt(m.group(i + 1));
                seen[0] = true;
            }
            logger.lifecycle(line);
        });
        if (r.exitCode != 0 || !seen[0]) throw new GradleException("flakescan: writing the reports failed: " + r.lastError());
        logger.lifecycle("flakescan: {} flaky, {} not flaky, {} could not run", counts[0], counts[1], counts[2]);
        // As Gradle points at its test report: a file:/// URL a terminal makes clickable.
        logger.lifecycle("flakescan: See the report at: {}", clickableFileUrl(new File(outDir, "index.html")));
        // The verified fixes of technique repair: announced only when there is one to apply.
        File repairs = new File(outDir, "flakescan-repairs.patch");
        if (repairs.isFile() && repairs.length() > 0)
            logger.lifecycle("flakescan: Verified repairs to review and apply (git apply): {}", clickableFileUrl(repairs));
        if (!applyPolicy) return;
        if (counts[0] > 0 && !s.failOn.equals("never"))
            throw new GradleException("flakescan: " + counts[0] + " flaky test(s) found (failOn = " + s.failOn + "); see " + outDir);
        if (counts[2] > 0 && s.failOn.equals("any"))
            throw new GradleException("flakescan: " + counts[2] + " test(s) could not run (failOn = any); see " + outDir);
    }

    static String clickableFileUrl(File file) {
        try {
            return new java.net.URI("file", "", file.getAbsoluteFile().toURI().getPath(), null, null).toString();
        } catch (java.net.URISyntaxException e) {
            return file.getAbsoluteFile().toURI().toString();
        }
    }
}
