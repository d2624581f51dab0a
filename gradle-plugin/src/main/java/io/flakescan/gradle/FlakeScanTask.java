package io.flakescan.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.TaskAction;
import org.gradle.api.tasks.testing.Test;

/**
 * Scans the tests of one Gradle {@link Test} task on the local JVM backend, or the connected
 * (instrumented) tests of one Android variant on the ADB backend, through the flakescan CLI:
 * {@code flakescan scan} writes verdicts.json, {@code flakescan report} writes every other
 * report next to it. Never up to date: each scan observes new runs.
 */
public class FlakeScanTask extends DefaultTask {
    private static final Pattern REPORT_COUNTS = Pattern.compile("flakescan report: (\\d+) flaky, (\\d+) not flaky, (\\d+) could not run");

    private String testTaskName;   // JVM scans
    private String variant;        // connected scans: "Debug", "FreeDebug"
    private File reportDir;

    public FlakeScanTask() {
        setGroup("verification");
        getOutputs().upToDateWhen(t -> false);
        getLogger().info("flakescan: created task {}", getPath());
    }

    void forTestTask(Test test) {
        testTaskName = test.getName();
        setDescription("Scans the tests of " + test.getPath() + " for flakiness (flakescan).");
        dependsOn(test.getClasspath());
        reportDir = new File(buildDir(getProject()), "reports/flakescan/" + testTaskName);
    }

    void forConnectedVariant(String variantName) {
        variant = variantName;
        setDescription("Scans the connected (instrumented) tests of variant " + variantName + " on a device for flakiness (flakescan).");
        Project p = getProject();
        for (String t : Arrays.asList("assemble" + variantName, "assemble" + variantName + "AndroidTest"))
            if (p.getTasks().getNames().contains(t)) dependsOn(t);
        reportDir = new File(buildDir(p), "reports/flakescan/connected" + variantName + "AndroidTest");
    }

    static File buildDir(Project p) {
        return p.getLayout().getBuildDirectory().get().getAsFile();
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
    boolean isConnected() {
        return variant != null;
    }

    @TaskAction
    public void scan() throws IOException {
        Settings s = Settings.read(getProject());
        Files.createDirectories(reportDir.toPath());
        File verdicts = getVerdictsFile();
        Files.deleteIfExists(verdicts.toPath());

        List<String> ids = selectTests(s);
        List<String> techniques = techniquesFor(s);
        String exe = s.dryRun ? s.executable : FlakescanCli.locate(s.executable, getProject().getProjectDir()).getPath();
        List<String> scan = new ArrayList<>(Arrays.asList(exe, "scan"));
        if (isConnected()) {
            // The app under test first, then the test APK (a library module has only the latter).
            List<String> app = new ArrayList<>(), test = new ArrayList<>();
            for (File apk : apks()) {
                boolean isTest = apk.getPath().contains(File.separator + "androidTest" + File.separator);
                (isTest ? test : app).addAll(Arrays.asList(isTest ? "--test-apk" : "--apk", apk.getPath()));
            }
            scan.addAll(Arrays.asList("--backend", "adb"));
            scan.addAll(app);
            scan.addAll(test);
        } else {
            scan.addAll(Arrays.asList("--classpath", classpath()));
        }
        // The ids go through a file: a nightly scan of everything can exceed the command-line limit.
        File idsFile = new File(reportDir, "tests.txt");
        Files.write(idsFile.toPath(), ids, StandardCharsets.UTF_8);
        scan.addAll(Arrays.asList("--tests-file", idsFile.getPath(), "--techniques", String.join(",", techniques),
                "--runs", Integer.toString(s.runs), "--out", verdicts.getPath()));
        if (s.seed != null) scan.addAll(Arrays.asList("--seed", s.seed.toString()));
        if (!s.strategy.isEmpty()) scan.addAll(Arrays.asList("--strategy", s.strategy));
        if (s.shuffleSeeds != null) scan.addAll(Arrays.asList("--shuffle-seeds", s.shuffleSeeds.toString()));
        if (!s.shuffleMode.isEmpty()) scan.addAll(Arrays.asList("--shuffle-mode", s.shuffleMode));
        if (s.shuffleRounds != null) scan.addAll(Arrays.asList("--shuffle-rounds", s.shuffleRounds.toString()));
        if (s.runTimeoutSeconds != null) scan.addAll(Arrays.asList("--timeout-seconds", s.runTimeoutSeconds.toString()));
        if (s.maxRuns != null) scan.addAll(Arrays.asList("--max-runs", s.maxRuns.toString()));
        if (s.maxSeconds != null) scan.addAll(Arrays.asList("--max-seconds", s.maxSeconds.toString()));
        if (!s.cliStartsDaemon()) scan.addAll(Arrays.asList("--daemon", s.daemon));
        for (String arg : jvmArgs(s)) scan.add("--jvm-arg=" + arg);

        List<String> report = reportCommand(exe, Collections.singletonList(verdicts), reportDir, sourceRoots(),
                isConnected() ? "" : classpath(), s);
        if (s.githubAnnotations) report.add("--github-annotations");

        if (s.dryRun) {
            getLogger().lifecycle("flakescan (dry run): {}", String.join(" ", scan));
            getLogger().lifecycle("flakescan (dry run): {}", String.join(" ", report));
            return;
        }
        if (ids.isEmpty()) {
            getLogger().lifecycle("flakescan: nothing to scan in {}: no test annotated @FlakyTest, no failure in earlier"
                    + " results, no -Pflakescan.tests; writing empty reports", subject());
            writeEmptyVerdicts(verdicts, techniques);
        } else {
            getLogger().lifecycle("flakescan: scanning {} test id(s) of {} with {} ({} runs each)", ids.size(), subject(),
                    String.join(",", techniques), s.runs);
            // Progress comes from the CLI on stderr while it waits for the daemon.
            FlakescanCli.Result r = FlakescanCli.run(scan, getProject().getProjectDir(),
                    line -> getLogger().lifecycle(line), line -> getLogger().lifecycle(line));
            if (r.exitCode != 0 || !verdicts.isFile())
                throw new GradleException("flakescan: the scan of " + subject() + " could not run: " + r.lastError());
        }
        // Under the aggregate flakeScan task the failure policy is applied once, after merging.
        boolean aggregated = false;
        for (org.gradle.api.Task t : getProject().getGradle().getTaskGraph().getAllTasks())
            aggregated |= t instanceof FlakeScanAggregateTask && t.getProject() == getProject();
        runReport(report, getLogger(), s, reportDir, getProject().getProjectDir(), !aggregated);
    }

    /**
     * The techniques of this scan: a connected scan leaves out those that need the local JVM
     * (shuffle swaps JDK classes, which a device's boot image does not allow), saying so; the
     * daemon would refuse every run of them on a device.
     */
    private List<String> techniquesFor(Settings s) {
        if (!isConnected()) return s.techniques;
        List<String> out = new ArrayList<>(), left = new ArrayList<>();
        for (String t : s.techniques) (Settings.LOCAL_ONLY_TECHNIQUES.contains(t) ? left : out).add(t);
        if (left.isEmpty()) return s.techniques;
        if (out.isEmpty())
            throw new GradleException("flakescan: technique(s) " + String.join(", ", left) + " run on the local JVM backend only;"
                    + " " + subject() + " runs on a device: choose other techniques for it (e.g. -Pflakescan.techniques=rerun)");
        getLogger().warn("flakescan: technique(s) {} run on the local JVM backend only: left out of the device scan {}",
                String.join(", ", left), subject());
        return out;
    }

    private String subject() {
        return isConnected() ? "connected" + variant + "AndroidTest" : getProject().getTasks().getByName(testTaskName).getPath();
    }

    /**
     * The test JVMs' options: the Test task's (as `gradle test` starts its JVMs) unless
     * testTaskJvmArgs is false, then the jvmArgs setting. Left out of the Test task's: a debugger
     * agent (flakescan's runner JVM carries its own) and a coverage agent (it would add
     * flakescan's runs to the build's coverage).
     */
    private List<String> jvmArgs(Settings s) {
        List<String> out = new ArrayList<>();
        if (!isConnected() && s.testTaskJvmArgs) {
            for (String arg : ((Test) getProject().getTasks().getByName(testTaskName)).getAllJvmArgs()) {
                if (isAgentToLeaveOut(arg)) getLogger().info("flakescan: the test JVMs do not get {} of {}", arg, subject());
                else out.add(arg);
            }
        }
        if (isConnected() && !s.jvmArgs.isEmpty())
            getLogger().warn("flakescan: jvmArgs apply to local JVM scans only: not given to the device scan {}", subject());
        if (!isConnected()) out.addAll(s.jvmArgs);
        return out;
    }

    static boolean isAgentToLeaveOut(String arg) {
        return arg.startsWith("-agentlib:jdwp") || arg.startsWith("-Xrunjdwp") || arg.equals("-Xdebug")
                || (arg.startsWith("-javaagent:") && arg.contains("jacoco"));
    }

    /** The test classpath goes to the report too: the patch uses only annotations it has. */
    static List<String> reportCommand(String exe, List<File> verdicts, File outDir, List<File> roots, String classpath, Settings s) {
        List<String> c = new ArrayList<>(Arrays.asList(exe, "report"));
        for (File v : verdicts) c.addAll(Arrays.asList("--verdicts", v.getPath()));
        c.addAll(Arrays.asList("--out-dir", outDir.getPath()));
        for (File r : roots) c.addAll(Arrays.asList("--source-root", r.getPath()));
        if (!classpath.isEmpty()) c.addAll(Arrays.asList("--classpath", classpath));
        c.addAll(s.patchOptions());
        return c;
    }

    /** Runs `flakescan report`, prints annotations and counts, applies the failure policy. */
    static void runReport(List<String> command, org.gradle.api.logging.Logger logger, Settings s, File outDir, File workDir,
                          boolean applyPolicy) {
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

    private void writeEmptyVerdicts(File verdicts, List<String> techniques) throws IOException {
        StringBuilder t = new StringBuilder();
        for (String tech : techniques) t.append(t.length() == 0 ? "" : ", ").append('"').append(tech).append('"');
        String json = "{\n  \"schema_version\": 1,\n  \"scan\": {\"id\": \"none\", \"state\": \"completed\", \"backend\": \""
                + (isConnected() ? "adb" : "local") + "\", \"techniques\": [" + t + "], \"error\": null},\n  \"verdicts\": []\n}\n";
        Files.write(verdicts.toPath(), json.getBytes(StandardCharsets.UTF_8));
    }

    // ---- what to scan -------------------------------------------------------------------

    private List<String> selectTests(Settings s) throws IOException {
        Set<String> ids = new LinkedHashSet<>(s.tests);
        if (!s.all && !s.annotated && !s.suspects) return new ArrayList<>(ids);
        Map<String, ClassFileScanner.TestClass> classes = ClassFileScanner.scan(classDirs());
        if (s.all) {
            ids.addAll(classes.keySet());
            getLogger().info("flakescan: all {} test classes selected", classes.size());
        }
        if (s.annotated) {
            for (ClassFileScanner.TestClass c : classes.values()) {
                if (c.flakyClass) ids.add(c.name);
                else for (String m : c.flakyMethods) ids.add(c.name + "#" + m);
            }
        }
        if (s.suspects) {
            List<File> locations = new ArrayList<>(defaultResults());
            for (String f : s.suspectsFrom) locations.add(getProject().file(f));
            Set<String> suspects = JUnitSuspects.read(locations, getLogger());
            getLogger().info("flakescan: {} suspect(s) from earlier results", suspects.size());
            ids.addAll(suspects);
        }
        // A whole class already covers its methods.
        List<String> out = new ArrayList<>();
        for (String id : ids) {
            int hash = id.indexOf('#');
            if (hash < 0 || !ids.contains(id.substring(0, hash))) out.add(id);
        }
        return out;
    }

    private List<File> classDirs() {
        Project p = getProject();
        if (!isConnected()) return new ArrayList<>(((Test) p.getTasks().getByName(testTaskName)).getTestClassesDirs().getFiles());
        String v = Character.toLowerCase(variant.charAt(0)) + variant.substring(1);
        File b = buildDir(p);
        return Arrays.asList(new File(b, "intermediates/javac/" + v + "AndroidTest"), new File(b, "intermediates/classes/androidTest/" + v),
                new File(b, "tmp/kotlin-classes/" + v + "AndroidTest"));
    }

    private List<File> defaultResults() {
        File b = buildDir(getProject());
        if (!isConnected()) return Collections.singletonList(new File(b, "test-results/" + testTaskName));
        List<File> out = new ArrayList<>();
        collectDirs(new File(b, "outputs/androidTest-results/connected"), out);
        return out;
    }

    private static void collectDirs(File dir, List<File> out) {
        if (!dir.isDirectory()) return;
        out.add(dir);
        File[] children = dir.listFiles(File::isDirectory);
        if (children != null) for (File c : children) collectDirs(c, out);
    }

    /** The Test task's classpath, ':'-joined; empty for a connected scan. */
    String classpath() {
        if (isConnected()) return "";
        FileCollection cp = ((Test) getProject().getTasks().getByName(testTaskName)).getClasspath();
        List<String> parts = new ArrayList<>();
        for (File f : cp.getFiles()) if (f.exists()) parts.add(f.getAbsolutePath());
        return String.join(File.pathSeparator, parts);
    }

    private List<File> apks() {
        File root = new File(buildDir(getProject()), "outputs/apk");
        List<File> all = new ArrayList<>();
        collectApks(root, all);
        String needle = variant.toLowerCase();
        List<File> out = new ArrayList<>();
        for (File f : all) {
            String rel = root.toPath().relativize(f.toPath()).toString().replace(File.separator, "").toLowerCase();
            if (rel.contains(needle)) out.add(f);
        }
        if (out.isEmpty())
            throw new GradleException("flakescan: no APK of variant " + variant + " under " + root
                    + " (run assemble" + variant + " and assemble" + variant + "AndroidTest)");
        return out;
    }

    private static void collectApks(File dir, List<File> out) {
        File[] children = dir.listFiles();
        if (children == null) return;
        Arrays.sort(children);
        for (File c : children) {
            if (c.isDirectory()) collectApks(c, out);
            else if (c.getName().endsWith(".apk")) out.add(c);
        }
    }

    /** Where test sources live, for the reports' file and line of each test. */
    List<File> sourceRoots() {
        Project p = getProject();
        Set<File> roots = new LinkedHashSet<>();
        Object sets = p.findProperty("sourceSets");
        if (sets instanceof SourceSetContainer) {
            Map<String, SourceSet> byName = new TreeMap<>(((SourceSetContainer) sets).getAsMap());
            for (SourceSet ss : byName.values()) {
                roots.addAll(ss.getAllJava().getSrcDirs());
                roots.add(p.file("src/" + ss.getName() + "/kotlin"));
            }
        }
        for (String d : Arrays.asList("src/test/java", "src/test/kotlin", "src/androidTest/java", "src/androidTest/kotlin"))
            roots.add(p.file(d));
        List<File> out = new ArrayList<>();
        for (File f : roots) if (f.isDirectory()) out.add(f);
        return out;
    }
}
