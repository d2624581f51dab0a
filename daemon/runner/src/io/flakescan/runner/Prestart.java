package io.flakescan.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A runner JVM the daemon starts before a run needs it ({@code Main wait}): it gets ready and
 * then blocks on stdin until the daemon tells it to run its tests ("run") or dismisses it (end
 * of input, any other line).
 *
 * <p>Isolation is the point of a fresh JVM per run, so before the instruction nothing of the
 * project may run or be initialised. Getting ready runs only the runner's own sample tests
 * (io.flakescan.runner.warmup) through JUnit 4, and discovers them (without running them)
 * through a launcher built by hand: the Jupiter
 * and Vintage engines by name, no engine, listener or filter auto-registration (those are
 * ServiceLoader lookups that would instantiate the project's classes), and no implicit
 * configuration parameters (a project's junit-platform.properties could switch on extension
 * auto-detection, which loads the project's extensions). The platform's logging initialises
 * java.util.logging, which looks up System.LoggerFinder services on the classpath. So the
 * platform part is skipped when the project could hook into it: a junit-platform.properties
 * anywhere on the classpath (a platform version that reads it elsewhere), a LoggerFinder
 * service file, or java.util.logging configured by the JVM's options (a config class, file or
 * manager). Otherwise the JVM has loaded and initialised JDK, JUnit and
 * runner classes, and compiled some of them; no test class and no class of the project. What a
 * test then sees of JUnit is what it would see in any JVM that ran tests before it in the
 * same run.
 *
 * <p>Getting ready is best effort: whatever fails (an older platform on the project's classpath
 * without these methods) is dropped, and the run then only lacks the warm-up.
 */
final class Prestart {
    private Prestart() {}

    /**
     * Warms JUnit 4 and, with `platform`, the platform on the runner's own samples; never throws.
     * Without: the run's tests all go to JUnit 4 directly (DirectJUnit4), and warming the
     * platform would cost some 80 ms of CPU that no run uses (docs/benchmarks.md, 2026-11-29).
     */
    static void getReady(boolean platform) {
        warmFiles();
        try {
            JUnit4Group.run("io.flakescan.runner.warmup.JUnit4Sample", List.of("second", "first"), DISCARD);
        } catch (RuntimeException | LinkageError e) {
            // best effort: the run only lacks the warm-up
        }
        if (!platform || projectMayHook()) return;
        try {
            Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                    .enableTestEngineAutoRegistration(false)
                    .enableLauncherSessionListenerAutoRegistration(false)
                    .enableLauncherDiscoveryListenerAutoRegistration(false)
                    .enablePostDiscoveryFilterAutoRegistration(false)
                    .enableTestExecutionListenerAutoRegistration(false)
                    .addTestEngines(engine("org.junit.jupiter.engine.JupiterTestEngine"),
                            engine("org.junit.vintage.engine.VintageTestEngine"))
                    .build());
            // Discovery only: executing the samples through both engines as well cost about 60 ms
            // more CPU per JVM for some 50 ms less after the instruction (docs/benchmarks.md,
            // 2026-11-28), which a loaded machine pays for in every run.
            launcher.discover(LauncherDiscoveryRequestBuilder.request()
                    .enableImplicitConfigurationParameters(false)
                    .selectors(selectClass("io.flakescan.runner.warmup.JupiterSample"),
                            selectClass("io.flakescan.runner.warmup.JUnit4Sample"))
                    .build());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // best effort, as above
        }
    }

    /**
     * Takes the JDK paths a run takes before its first test, on files of the runner's own: a
     * results file written through ResultSink (a duration among its values), read back with
     * Files.readAllLines as Main reads the tests file, and a resource read from the runner's
     * jar through its jar: URL as the platform's ServiceLoader lookups read service files.
     * About 15 ms of class loading that each run otherwise paid after the instruction.
     */
    private static void warmFiles() {
        java.io.File file = null;
        try {
            file = java.io.File.createTempFile("flakescan-warm", ".jsonl");
            try (ResultSink sink = new ResultSink(file.getPath())) {
                sink.write(new JsonLine().put("event", "warm").put("index", 0).put("duration_ms", 1.5));
            }
            java.nio.file.Files.readAllLines(file.toPath(), java.nio.charset.StandardCharsets.UTF_8);
            java.net.URL own = Prestart.class.getResource("Prestart.class");
            if (own != null) {
                try (InputStream in = own.openStream()) {
                    in.readAllBytes();
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: the run only lacks the warm-up
        } finally {
            if (file != null) file.delete();
        }
    }

    /** Whether starting the platform could run or read something of the project (see the class comment). */
    private static boolean projectMayHook() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader.getResource("junit-platform.properties") != null) return true;
        if (loader.getResource("META-INF/services/java.lang.System$LoggerFinder") != null) return true;
        for (String p : List.of("java.util.logging.config.class", "java.util.logging.config.file", "java.util.logging.manager"))
            if (System.getProperty(p) != null) return true;
        return false;
    }

    private static TestEngine engine(String className) throws ReflectiveOperationException {
        return (TestEngine) Class.forName(className).getDeclaredConstructor().newInstance();
    }

    private static final GroupListener.Sink DISCARD = new GroupListener.Sink() {
        @Override
        public void started(int entry) {}

        @Override
        public void finished(int entry, OutcomeListener listener, double millis) {}
    };

    /**
     * Blocks until the daemon's instruction: true for "run". Reads stdin byte by byte up to the
     * newline, so nothing after it is taken from a test that reads System.in itself.
     */
    static boolean awaitRun(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) line.append((char) c);
        return line.toString().trim().equals("run");
    }
}
