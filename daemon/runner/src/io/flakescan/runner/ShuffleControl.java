package io.flakescan.runner;

import java.lang.reflect.Method;

/**
 * Starts and reads the shuffling of unspecified orders (technique shuffle) in a runner JVM
 * that runs on the shuffling JDK. The daemon asks for it with system properties:
 * {@code flakescan.shuffle.seed} (a 64-bit seed, unsigned decimal), {@code flakescan.shuffle.mode}
 * ({@code full} or {@code one}) and, optionally, {@code flakescan.shuffle.sites} (a file of site
 * keys: only those are shuffled). Shuffling starts once the tests' classes are discovered, so
 * JVM start-up and discovery run as on the plain JDK; the JDK side ({@code java.util.FlakescanShuffle},
 * only in the shuffling JDK) is reached by reflection, since the runner also runs on plain JDKs.
 * Every finished line then carries the sites seen while that entry ran (drain).
 */
final class ShuffleControl {
    private static final String SHUFFLER = "java.util.FlakescanShuffle";
    private static Method drain;

    private ShuffleControl() {}

    /** True when the daemon asked for a shuffled run. */
    static boolean requested() {
        return System.getProperty("flakescan.shuffle.seed") != null;
    }

    /** Starts shuffling when asked to; fails when this JVM is not a shuffling JDK. */
    static synchronized void startIfRequested() {
        if (!requested() || drain != null) return;
        long seed = Long.parseUnsignedLong(System.getProperty("flakescan.shuffle.seed"));
        String mode = System.getProperty("flakescan.shuffle.mode", "full");
        String sites = System.getProperty("flakescan.shuffle.sites");
        try {
            Class<?> shuffler = Class.forName(SHUFFLER);
            shuffler.getMethod("start", long.class, String.class, String.class).invoke(null, seed, mode, sites);
            drain = shuffler.getMethod("drain");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a shuffled run was asked for, but this JVM is not a shuffling JDK (no " + SHUFFLER + ")", e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot start shuffling: " + e, e);
        }
    }

    /** The sites seen since the last call, as JSON array text; null when not shuffling. */
    static synchronized String drain() {
        if (drain == null) return null;
        try {
            return (String) drain.invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
