package java.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shuffling session of this JVM: seed, mode and sites filter (set by start), each site's
 * call count since start (for mode "full"), the records drain() hands out, and the per-thread
 * guard. Loaded on the first start(), never during VM start-up.
 *
 * <p>Invariants: a site's permutations depend only on (seed, hash of its key, and its call
 * index in mode "full" or the element count in mode "one"), never on other sites, so shuffling
 * a subset of sites shuffles each of them exactly as shuffling all would. Records and counts
 * are guarded by LOCK; the configuration is replaced whole by start().
 */
final class FlakescanState {
    static final StackWalker WALKER = StackWalker.getInstance();

    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();
    private static final Object LOCK = new Object();

    private static volatile boolean started;
    private static volatile long seed;
    private static volatile boolean oneMode;
    private static volatile Set<String> only;  // null: every site

    private static final HashMap<String, long[]> calls = new HashMap<>();
    private static LinkedHashMap<String, FlakescanRecord> records = new LinkedHashMap<>();

    private FlakescanState() {}

    static void start(long newSeed, String mode, String sitesFile) {
        boolean one;
        if ("full".equals(mode)) {
            one = false;
        } else if ("one".equals(mode)) {
            one = true;
        } else {
            throw new IllegalArgumentException("shuffle mode must be \"full\" or \"one\", not " + mode);
        }
        boolean guarded = enter();
        try {
            Set<String> filter = sitesFile == null ? null : readSites(sitesFile);
            synchronized (LOCK) {
                if (started && seed == newSeed && oneMode == one && Objects.equals(only, filter)) {
                    return;
                }
                seed = newSeed;
                oneMode = one;
                only = filter;
                calls.clear();
                started = true;
            }
        } finally {
            if (guarded) {
                exit();
            }
        }
    }

    private static Set<String> readSites(String sitesFile) {
        try {
            Set<String> keys = new HashSet<>();
            for (String line : Files.readAllLines(Path.of(sitesFile), StandardCharsets.UTF_8)) {
                String key = line.strip();
                if (!key.isEmpty()) {
                    keys.add(key);
                }
            }
            return keys;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the sites file " + sitesFile + ": " + e, e);
        }
    }

    /** Takes this thread's guard; false when it is held already (we are inside our own code) or before start. */
    static boolean enter() {
        if (!started || BUSY.get() == Boolean.TRUE) {
            return false;
        }
        BUSY.set(Boolean.TRUE);
        return true;
    }

    static void exit() {
        BUSY.set(Boolean.FALSE);
    }

    static boolean isRecorded(String key) {
        synchronized (LOCK) {
            return records.containsKey(key);
        }
    }

    /** Records an eligible call and numbers it; true when the sites filter lets it be shuffled. */
    static boolean admit(FlakescanSite site, int size) {
        synchronized (LOCK) {
            FlakescanRecord record = recordOf(site);
            record.seen++;
            record.size = Math.max(record.size, size);
            long[] count = calls.get(site.key);
            if (count == null) {
                count = new long[1];
                calls.put(site.key, count);
            }
            site.occurrence = count[0]++;
        }
        Set<String> filter = only;
        return filter == null || filter.contains(site.key);
    }

    static void shuffled(FlakescanSite site, int size) {
        synchronized (LOCK) {
            FlakescanRecord record = recordOf(site);
            record.shuffled++;
            record.size = Math.max(record.size, size);
        }
    }

    private static FlakescanRecord recordOf(FlakescanSite site) {
        FlakescanRecord record = records.get(site.key);
        if (record == null) {
            record = new FlakescanRecord(site.key, site.api, site.via, site.frames);
            records.put(site.key, record);
        }
        return record;
    }

    /** The order for this call of the site: position i serves element order[i]; never the identity. */
    static int[] permutation(FlakescanSite site, int n) {
        return FlakescanPermutation.draw(seed, site.keyHash, oneMode ? n : site.occurrence, n);
    }

    static String drain() {
        StringBuilder json = new StringBuilder("[");
        synchronized (LOCK) {
            for (FlakescanRecord record : records.values()) {
                if (json.length() > 1) {
                    json.append(',');
                }
                record.appendJson(json);
            }
            records = new LinkedHashMap<>();
        }
        return json.append(']').toString();
    }
}
