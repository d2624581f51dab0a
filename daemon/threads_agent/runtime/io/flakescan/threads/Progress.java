package io.flakescan.threads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * How far a controlled test got, written about once a second by the Watchdog to the file that
 * -Dflakescan.threads.progress names (nothing without it). A run killed at its deadline writes
 * no record; the daemon reads this file instead, so that its reason can say how many points
 * the schedule passed and where the running thread was (docs/threads.md, "Leaving control").
 * Lines "key=value": test, points, together, threads, controlling, site. Written to a
 * temporary file and moved over the old one, so a reader never sees half of it.
 */
final class Progress {
    private static final long INTERVAL_NS = 1_000_000_000L;
    private static final String FILE = System.getProperty("flakescan.threads.progress");
    private static long lastWrite;

    private Progress() {}

    /** Called by the Watchdog with the active session; writes at most once per INTERVAL_NS. */
    static void maybeWrite(Session s, long now) {
        if (FILE == null || now - lastWrite < INTERVAL_NS) return;
        lastWrite = now;
        String text;
        synchronized (s) {
            ThreadState running = s.holder;
            String site = running != null && running.lastSite != null ? running.lastSite : "";
            text = "test=" + s.testId + "\npoints=" + s.record.total() + "\ntogether=" + s.record.together() + "\nthreads="
                    + s.threads.size() + "\ncontrolling=" + s.controlling + "\nsite=" + site + "\n";
        }
        Path target = Paths.get(FILE);
        Path temp = Paths.get(FILE + ".tmp");
        try {
            Files.write(temp, text.getBytes(StandardCharsets.UTF_8));
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // A progress file is a diagnosis; the test goes on without it.
        }
    }
}
