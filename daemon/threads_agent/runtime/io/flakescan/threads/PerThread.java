package io.flakescan.threads;

import java.util.ArrayList;

/** Per thread that was ever controlled: its state in the latest session and its monitor entries. */
final class PerThread {
    private static final ThreadLocal<PerThread> CURRENT = new ThreadLocal<>();

    ThreadState state;
    /** {monitor, Session (null: a real entry), Boolean: the real monitor is held too}, innermost last. */
    final ArrayList<Object[]> monitors = new ArrayList<>();

    static PerThread get() {
        return CURRENT.get();
    }

    static void set(PerThread pt) {
        CURRENT.set(pt);
    }

    /** The innermost entry of monitor `o`, or null. */
    Object[] top(Object o) {
        for (int i = monitors.size() - 1; i >= 0; i--) if (monitors.get(i)[0] == o) return monitors.get(i);
        return null;
    }
}
