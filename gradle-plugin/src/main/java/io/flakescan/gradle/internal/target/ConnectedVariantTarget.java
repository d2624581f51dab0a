package io.flakescan.gradle.internal.target;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.flakescan.gradle.internal.settings.ScanSettings;

import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.logging.Logger;

/**
 * The connected (instrumented) tests of one Android variant ("Debug", "FreeDebug"), scanned
 * on a device through the ADB backend. Inputs are found where the Android Gradle plugin puts
 * them under the build directory.
 */
public final class ConnectedVariantTarget extends ScanTarget {
    private final String variant;

    public ConnectedVariantTarget(Project project, String variant) {
        super(project);
        this.variant = variant;
    }

    @Override
    public void configure(Task scanTask) {
        scanTask.setDescription("Scans the connected (instrumented) tests of variant " + variant + " on a device for flakiness (flakescan).");
        for (String t : Arrays.asList("assemble" + variant, "assemble" + variant + "AndroidTest"))
            if (project.getTasks().getNames().contains(t)) scanTask.dependsOn(t);
    }

    @Override
    public String reportDirName() {
        return "connected" + variant + "AndroidTest";
    }

    @Override
    public String subject() {
        return "connected" + variant + "AndroidTest";
    }

    @Override
    public String backend() {
        return "adb";
    }

    /** The app under test first, then the test APK (a library module has only the latter). */
    @Override
    public List<String> backendArguments() {
        List<String> app = new ArrayList<>(), test = new ArrayList<>();
        for (File apk : apks()) {
            boolean isTest = apk.getPath().contains(File.separator + "androidTest" + File.separator);
            (isTest ? test : app).addAll(Arrays.asList(isTest ? "--test-apk" : "--apk", apk.getPath()));
        }
        List<String> out = new ArrayList<>(Arrays.asList("--backend", "adb"));
        out.addAll(app);
        out.addAll(test);
        return out;
    }

    /**
     * Leaves out the techniques that need the local JVM (shuffle swaps JDK classes, which a
     * device's boot image does not allow; threads starts the test JVM with a Java agent, which
     * ART has no place for), saying so; the daemon would refuse every run of them
     * on a device.
     */
    @Override
    public List<String> techniques(ScanSettings s, Logger logger) {
        List<String> out = new ArrayList<>(), left = new ArrayList<>();
        for (String t : s.techniques) (ScanSettings.LOCAL_ONLY_TECHNIQUES.contains(t) ? left : out).add(t);
        if (left.isEmpty()) return s.techniques;
        if (out.isEmpty())
            throw new GradleException("flakescan: technique(s) " + String.join(", ", left) + " run on the local JVM backend only;"
                    + " " + subject() + " runs on a device: choose other techniques for it (e.g. -Pflakescan.techniques=rerun)");
        logger.warn("flakescan: technique(s) {} run on the local JVM backend only: left out of the device scan {}",
                String.join(", ", left), subject());
        return out;
    }

    @Override
    public List<String> jvmArgs(ScanSettings s, Logger logger) {
        if (!s.jvmArgs.isEmpty())
            logger.warn("flakescan: jvmArgs apply to local JVM scans only: not given to the device scan {}", subject());
        return Collections.emptyList();
    }

    @Override
    public List<File> classDirs() {
        String v = Character.toLowerCase(variant.charAt(0)) + variant.substring(1);
        File b = buildDir(project);
        return Arrays.asList(new File(b, "intermediates/javac/" + v + "AndroidTest"), new File(b, "intermediates/classes/androidTest/" + v),
                new File(b, "tmp/kotlin-classes/" + v + "AndroidTest"));
    }

    @Override
    public List<File> defaultResults() {
        List<File> out = new ArrayList<>();
        collectDirs(new File(buildDir(project), "outputs/androidTest-results/connected"), out);
        return out;
    }

    private static void collectDirs(File dir, List<File> out) {
        if (!dir.isDirectory()) return;
        out.add(dir);
        File[] children = dir.listFiles(File::isDirectory);
        if (children != null) for (File c : children) collectDirs(c, out);
    }

    @Override
    public String classpath() {
        return "";
    }

    private List<File> apks() {
        File root = new File(buildDir(project), "outputs/apk");
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
}
