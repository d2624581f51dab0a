package io.flakescan.threads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Whether a controlled thread the scheduler waits for has gone too long without a scheduling
 * point while runnable (Watchdog): 1 s of its own CPU time since it began to run (work in code
 * that is not rewritten), or 1 s in which it used no CPU time at all (runnable to the JVM but
 * waiting in native code, as a socket read does). CPU time, not the wall clock: on a loaded
 * machine a thread waits for a processor, and the clock would count that wait as its work
 * (J7: 21 of 63 schedules of log4j 38137 inexact at load 12). Where the JVM cannot measure a
 * thread's CPU time, 1 s of wall time, as before.
 */
final class Busy {
    private static final long LIMIT = 1_000_000_000L;
    private static final ThreadMXBean CPU = cpuClock();

    private Busy() {}

    /** Loads the class, and with it the CPU clock. */
    static void ready() {}

    /** Why `t`, running since `from` (System.nanoTime), must leave control now, or null. */
    static String tooLong(ThreadState t, long from, long now) {
        long cpu = CPU == null ? -1 : CPU.getThreadCpuTime(t.thread.getId());
        if (cpu < 0) return now - from >= LIMIT ? "did not reach a scheduling point within 1 s" : null;
        if (t.busyFrom != from) {
            t.busyFrom = from;
            t.cpuAtFrom = cpu;
            t.cpuSeen = cpu;
            t.cpuSeenAt = now;
        }
        if (cpu != t.cpuSeen) {
            t.cpuSeen = cpu;
            t.cpuSeenAt = now;
        }
        if (cpu - t.cpuAtFrom >= LIMIT) return "did not reach a scheduling point within 1 s of its own CPU time";
        if (now - t.cpuSeenAt >= LIMIT) return "used no CPU time for 1 s without reaching a scheduling point (waiting outside the JVM's view)";
        return null;
    }

    private static ThreadMXBean cpuClock() {
        try {
            ThreadMXBean b = ManagementFactory.getThreadMXBean();
            if (!b.isThreadCpuTimeSupported()) return null;
            if (!b.isThreadCpuTimeEnabled()) b.setThreadCpuTimeEnabled(true);
            return b;
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
