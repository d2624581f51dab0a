package io.flakescan.runner;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Controlled schedules (technique threads, docs/threads.md): when the daemon sets
 * flakescan.threads.strategy, the JVM runs with the threads agent, and each entry runs between
 * io.flakescan.threads.Control.begin(test) and end(), called on the thread that runs the entry
 * (thread 0 of the schedule). end() returns the schedule record, which goes into the entry's
 * finished line as "threads". Control is on the bootstrap class path (the agent puts it there)
 * and reached by reflection, since the runner also runs without the agent.
 */
final class ThreadsControl {
    private static final String CONTROL = "io.flakescan.threads.Control";
    private static Method begin;
    private static Method end;

    private ThreadsControl() {}

    /** True when the daemon asked for a controlled run. */
    static boolean requested() {
        return System.getProperty("flakescan.threads.strategy") != null;
    }

    /**
     * Finds Control when a controlled run was asked for; fails (the runner exits with status 3)
     * when the agent is not loaded. Called before the first entry: a failure inside a JUnit
     * listener would only be logged.
     */
    static synchronized void prepareIfRequested() {
        if (!requested() || begin != null) return;
        try {
            Class<?> control = Class.forName(CONTROL);
            begin = control.getMethod("begin", String.class);
            end = control.getMethod("end");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a controlled run was asked for, but the threads agent is not loaded (no " + CONTROL + ")", e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + CONTROL + ": " + e, e);
        }
    }

    /** Begins controlling the calling thread's entry (controlled runs only). */
    static void begin(String test) {
        if (begin == null) return;
        try {
            begin.invoke(null, test);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot begin a controlled test: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot begin a controlled test: " + e, e);
        }
    }

    /** The schedule record of the entry begun last, as JSON text; null when not controlled. */
    static String end() {
        if (end == null) return null;
        try {
            return (String) end.invoke(null);
        } catch (ReflectiveOperationException e) {
            System.err.println("flakescan runner: cannot end a controlled test: " + e);
            return null;
        }
    }
}
