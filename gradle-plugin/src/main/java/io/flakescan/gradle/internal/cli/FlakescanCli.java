package io.flakescan.gradle.internal.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.gradle.api.GradleException;

/** Finds the flakescan executable and runs it, streaming its output line by line. */
public final class FlakescanCli {
    public static final class Result {
        public final int exitCode;
        public final List<String> stdout;
        public final List<String> stderr;

        Result(int exitCode, List<String> stdout, List<String> stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** The CLI's reason: its first line on a usage error (the usage text follows), else its last line. */
        public String lastError() {
            if (exitCode == 2)
                for (String line : stderr)
                    if (!line.trim().isEmpty()) return line.trim();
            for (int i = stderr.size() - 1; i >= 0; i--)
                if (!stderr.get(i).trim().isEmpty()) return stderr.get(i).trim();
            return "exit code " + exitCode;
        }
    }

    private FlakescanCli() {}

    /** A path is used as given; a bare name is looked up on PATH, then in $FLAKESCAN_HOME/bin. */
    public static File locate(String executable, File projectDir) {
        if (executable.contains("/") || executable.contains(File.separator)) {
            File f = new File(executable);
            if (!f.isAbsolute()) f = new File(projectDir, executable);
            if (f.canExecute()) return f;
            throw new GradleException("flakescan: executable " + f + " does not exist or is not executable"
                    + " (set flakeScan.executable or -Pflakescan.executable)");
        }
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) for (String d : path.split(File.pathSeparator)) dirs.add(d);
        String home = System.getenv("FLAKESCAN_HOME");
        if (home != null) dirs.add(home + File.separator + "bin");
        for (String d : dirs) {
            File f = new File(d, executable);
            if (f.isFile() && f.canExecute()) return f;
        }
        throw new GradleException("flakescan: '" + executable + "' was not found on PATH or in $FLAKESCAN_HOME/bin;"
                + " install flakescan or set flakeScan.executable / -Pflakescan.executable to its path");
    }

    /** Runs the command; each output line goes to its consumer as it arrives (progress). */
    public static Result run(List<String> command, File workDir, Consumer<String> onStdout, Consumer<String> onStderr) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new GradleException("flakescan: cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // nothing to send
        }
        List<String> out = new ArrayList<>(), err = new ArrayList<>();
        Thread errPump = pump(p.getErrorStream(), err, onStderr);
        Thread outPump = pump(p.getInputStream(), out, onStdout);
        try {
            int code = p.waitFor();
            errPump.join();
            outPump.join();
            synchronized (out) {
                synchronized (err) {
                    return new Result(code, new ArrayList<>(out), new ArrayList<>(err));
                }
            }
        } catch (InterruptedException e) {
            // Gradle cancelled the build (Ctrl-C): stop the CLI, which cancels its scan.
            p.destroy();
            Thread.currentThread().interrupt();
            throw new GradleException("flakescan: interrupted", e);
        }
    }

    private static Thread pump(InputStream stream, List<String> sink, Consumer<String> consumer) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (sink) {
                        sink.add(line);
                    }
                    consumer.accept(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "flakescan-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
