package java.util;

/**
 * The shuffling JDK's switch (flakescan, technique {@code shuffle}; docs/shuffle.md). This class
 * exists only in a shuffling JDK: its java.base has patched methods whose unspecified orders
 * (HashMap iteration, Class.getDeclaredMethods, File.list, ...) come out as seeded permutations
 * once {@link #start} was called. The runner reaches it by reflection.
 *
 * <p>Policy: until {@code start}, every patched method reads {@link #active} and goes on as the
 * plain JDK; this class therefore has no static initialiser (it is loaded during VM start-up,
 * by the first patched method that runs), and all the state lives in {@link FlakescanState},
 * loaded on the first {@code start}.
 */
public final class FlakescanShuffle {
    /**
     * Internal, read by the patched methods: false means "behave as the plain JDK". Public only
     * because patched methods in java.lang, java.io and java.util.concurrent read it; write it
     * only through {@link #start} and {@link #stop}.
     */
    public static volatile boolean active;

    private FlakescanShuffle() {}

    /**
     * Starts shuffling in this JVM. mode: "full" (a fresh permutation per call) or "one"
     * (one permutation per call site: the same site and the same size always give the same
     * permutation). sitesFile: null = every eligible site; else only the site keys listed in
     * that file (UTF-8, one key per line) are shuffled. Idempotent (a call with other arguments
     * switches to them and restarts the per-site call counts); throws IllegalArgumentException
     * on a bad mode or an unreadable sites file.
     */
    public static void start(long seed, String mode, String sitesFile) {
        FlakescanState.start(seed, mode, sitesFile);
        active = true;
    }

    /**
     * Every eligible site seen since the last drain, as the text of a JSON array (docs/shuffle.md
     * gives its fields); "[]" when none. Thread-safe.
     */
    public static String drain() {
        return FlakescanState.drain();
    }

    /** Stops shuffling (later calls behave as the plain JDK; iterators already made stay shuffled). */
    public static void stop() {
        active = false;
    }

    /**
     * Internal: a patched method calls this with the value it is about to return (an iterator,
     * enumeration, spliterator or array) when {@link #active}; the result replaces that value.
     * owner: the map, set or queue behind it (null for Class and File arrays).
     */
    public static Object patchedReturn(Object value, Object owner, String api, String handler) {
        if (value == null) {
            return null;
        }
        return FlakescanHooks.onReturn(value, owner, api, handler);
    }

    /**
     * Internal: a patched forEach or toString calls this first when {@link #active}. Returns
     * null to let the method's own body run (not shuffled here), else the method's result
     * (any non-null value for void methods). aux: a lock the original holds while it loops.
     */
    public static Object patchedEntry(Object owner, Object aux, Object arg, String api, String handler) {
        return FlakescanHooks.onEntry(owner, aux, arg, api, handler);
    }
}
