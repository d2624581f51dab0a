package io.flakescan.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * flakescan's JVM runner. Usage:
 * <pre>
 *   java -cp PROJECT_CP:RUNNER_CP io.flakescan.runner.Main run      --tests-file F --results R
 *   java -cp PROJECT_CP:RUNNER_CP io.flakescan.runner.Main discover --tests-file F --results R
 *   java -XX:ArchiveClassesAtExit=A -cp JARS io.flakescan.runner.Main warmup --results R
 *   java -cp PROJECT_CP:RUNNER_CP io.flakescan.runner.Main wait [--warm junit4] --tests-file F --results R
 * </pre>
 * F holds one test id per line ("pkg.Class#method", "pkg.Outer$Nested#method" or "pkg.Class").
 * {@code run} executes the ids in exactly that order (repeats allowed) and writes one "started"
 * and one "finished" line per entry to R, and an "exit" line naming the caller when a test
 * calls System.exit (ExitWatch); {@code discover} writes one "test" line per test of each id
 * (each once), or a "missing" line, a "classpath" line saying whether a file of a class
 * directory is also in a jar (ClasspathShadows), and a "direct" line saying whether runs of
 * those tests skip the Platform (DirectJUnit4); {@code warmup} runs a few built-in JUnit 4 and
 * JUnit 5 tests the ways {@code run} does, in the JVM that dumps the runner's class data
 * archive; {@code wait} is a JVM started ahead of its run (Prestart): it gets ready without
 * touching the project, then reads one line from stdin and, when it is "run", does what
 * {@code run} does (F is written by then); on anything else it exits 0 having run nothing.
 * With {@code --warm junit4} it gets ready for JUnit 4 alone, for runs that skip the Platform.
 * The exit status is 0 when the runner itself worked,
 * whatever the tests did.
 */
public final class Main {
    private Main() {}

    /** What the warm-up runs: JUnit 4 in and out of its order, Jupiter grouped and alone. */
    private static final List<String> WARM_UP = List.of(
            "io.flakescan.runner.warmup.JUnit4Sample#second", "io.flakescan.runner.warmup.JUnit4Sample#first",
            "io.flakescan.runner.warmup.JupiterSample#second", "io.flakescan.runner.warmup.JupiterSample#first",
            "io.flakescan.runner.warmup.JupiterSample#second");

    public static void main(String[] args) {
        String mode = null;
        String testsFile = null;
        String resultsFile = null;
        boolean warmPlatform = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tests-file": testsFile = args[++i]; break;
                case "--results": resultsFile = args[++i]; break;
                case "--warm": warmPlatform = !"junit4".equals(args[++i]); break;
                default: mode = args[i];
            }
        }
        if (mode == null || resultsFile == null || (testsFile == null && !"warmup".equals(mode))) {
            System.err.println("usage: Main run|discover|wait --tests-file F --results R, or Main warmup --results R");
            System.exit(2);
        }
        if (mode.equals("wait")) {
            Prestart.getReady(warmPlatform);
            // In the run's log: what comes before this line, the JVM did before it knew its tests.
            System.err.println("flakescan runner: ready, waiting for the daemon to say run");
            try {
                if (!Prestart.awaitRun(System.in)) System.exit(0);
            } catch (IOException e) {
                System.exit(0);
            }
            mode = "run";
        }
        try (ResultSink sink = new ResultSink(resultsFile)) {
            List<String> ids = testsFile == null ? WARM_UP : Files.readAllLines(Paths.get(testsFile), StandardCharsets.UTF_8);
            ids = new java.util.ArrayList<>(ids);
            ids.removeIf(String::isBlank);
            // A line "|" before an entry: a new run of its class begins there (see OrderedRunner).
            java.util.Set<Integer> classRunStarts = new java.util.HashSet<>();
            List<String> tests = new java.util.ArrayList<>();
            for (String id : ids) {
                if (id.trim().equals("|")) classRunStarts.add(tests.size());
                else tests.add(id);
            }
            ids = tests;
            OrderedRunner runner = new OrderedRunner(sink, classRunStarts);
            if (mode.equals("run")) {
                Runtime.getRuntime().addShutdownHook(new ExitWatch(sink));
                // Prepared so that a debugger finds it and can call it: technique repair.
                StateKeeper.prepare();
                runner.run(ids);
            } else if (mode.equals("discover")) {
                runner.discover(ids);
                sink.write(new JsonLine().put("event", "classpath").put("shadowed", ClasspathShadows.first()));
            } else if (mode.equals("warmup")) {
                Prestart.getReady(true);  // so that the archive also holds what a waiting JVM loads
                runner.run(ids);
            } else {
                System.err.println("unknown mode " + mode);
                System.exit(2);
            }
            sink.write(new JsonLine().put("event", "done"));
        } catch (IOException | RuntimeException e) {
            System.err.println("flakescan runner failed: " + e);
            e.printStackTrace();
            System.exit(3);
        }
        // Tests may leave non-daemon threads behind; they must not keep the JVM alive.
        System.exit(0);
    }
}
