package io.flakescan.gradle.internal.cli;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.flakescan.gradle.internal.settings.ScanSettings;

/** The command line of {@code flakescan scan}: one option per setting that is set. */
public final class ScanCommand {
    private ScanCommand() {}

    /**
     * {@code backendArguments} say what to run (classpath or APKs); the test ids go through
     * {@code testsFile}: a nightly scan of everything can exceed the command-line limit.
     */
    public static List<String> command(String exe, List<String> backendArguments, File testsFile, List<String> techniques,
                                       File verdicts, ScanSettings s, List<String> jvmArgs) {
        List<String> scan = new ArrayList<>(Arrays.asList(exe, "scan"));
        scan.addAll(backendArguments);
        scan.addAll(Arrays.asList("--tests-file", testsFile.getPath(), "--techniques", String.join(",", techniques),
                "--runs", Integer.toString(s.runs), "--out", verdicts.getPath()));
        if (s.seed != null) scan.addAll(Arrays.asList("--seed", s.seed.toString()));
        if (!s.strategy.isEmpty()) scan.addAll(Arrays.asList("--strategy", s.strategy));
        if (s.shuffleSeeds != null) scan.addAll(Arrays.asList("--shuffle-seeds", s.shuffleSeeds.toString()));
        if (!s.shuffleMode.isEmpty()) scan.addAll(Arrays.asList("--shuffle-mode", s.shuffleMode));
        if (s.shuffleRounds != null) scan.addAll(Arrays.asList("--shuffle-rounds", s.shuffleRounds.toString()));
        if (!s.threadStrategy.isEmpty()) scan.addAll(Arrays.asList("--thread-strategy", s.threadStrategy));
        if (s.threadSchedules != null) scan.addAll(Arrays.asList("--thread-schedules", s.threadSchedules.toString()));
        if (s.bugDepth != null) scan.addAll(Arrays.asList("--bug-depth", s.bugDepth.toString()));
        if (!s.virtualTime) scan.addAll(Arrays.asList("--virtual-time", "off"));
        if (s.threadMaxSteps != null) scan.addAll(Arrays.asList("--thread-max-steps", s.threadMaxSteps.toString()));
        if (!s.threadInclude.isEmpty()) scan.addAll(Arrays.asList("--thread-include", String.join(",", s.threadInclude)));
        if (!s.shard.isEmpty()) scan.addAll(Arrays.asList("--shard", s.shard));
        if (!s.group.isEmpty()) scan.addAll(Arrays.asList("--group", s.group));
        if (!s.newSince.isEmpty()) scan.addAll(Arrays.asList("--new-since", s.newSince));
        if (s.runTimeoutSeconds != null) scan.addAll(Arrays.asList("--timeout-seconds", s.runTimeoutSeconds.toString()));
        if (s.maxRuns != null) scan.addAll(Arrays.asList("--max-runs", s.maxRuns.toString()));
        if (s.maxSeconds != null) scan.addAll(Arrays.asList("--max-seconds", s.maxSeconds.toString()));
        if (!s.cliStartsDaemon()) scan.addAll(Arrays.asList("--daemon", s.daemon));
        for (String arg : jvmArgs) scan.add("--jvm-arg=" + arg);
        return scan;
    }
}
