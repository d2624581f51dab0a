package io.flakescan.threads;

/**
 * The runner's handle on the scheduler (docs/threads.md): begin(testId) before a test, with the
 * calling thread as thread 0, and end() after it, which returns the schedule record as JSON. The
 * settings are the system properties flakescan.threads.* of that moment. Without a begin,
 * rewritten code behaves as the original.
 */
public final class Control {
    private Control() {}

    public static synchronized void begin(String testId) {
        Session old = Session.active;
        if (old != null) old.finish();
        Session s;
        try {
            s = new Session(Settings.fromProperties(), testId, Thread.currentThread());
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalStateException("flakescan threads: cannot begin a controlled test: " + e.getMessage(), e);
        }
        Sched.bind(s.threads.get(0));
        Watchdog.ensureRunning();
        Session.active = s;
    }

    /** The record of the test begun last, or null when none was begun. */
    public static synchronized String end() {
        Session s = Session.active;
        return s == null ? null : s.finish();
    }
}
