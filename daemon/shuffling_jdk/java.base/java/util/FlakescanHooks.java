package java.util;

import java.util.concurrent.locks.Lock;

/**
 * What a patched method's call does once shuffling is on: decide whether this call is shuffled
 * (2 or more elements, a site outside the JDK and the test machinery, allowed by the sites
 * filter), and if so return the permuted value or run the permuted loop.
 *
 * <p>Everything here runs under the thread's guard ({@link FlakescanState#enter}), so that the
 * collections, StackWalker and string building used here are never shuffled and never come
 * back here; user code (a forEach action) runs after the guard is released. A failure of our
 * own leaves the call plain: a patched method throws only what the JDK method would.
 */
final class FlakescanHooks {
    private FlakescanHooks() {}

    static Object onReturn(Object value, Object owner, String api, String handler) {
        if (!FlakescanState.enter()) {
            return value;
        }
        try {
            return shuffled(value, owner, api, handler);
        } catch (Throwable ours) {
            return value;
        } finally {
            FlakescanState.exit();
        }
    }

    static Object onEntry(Object owner, Object aux, Object arg, String api, String handler) {
        boolean toString = handler.startsWith("toString");
        if (arg == null && !toString) {
            return null;  // the original body throws the NullPointerException
        }
        // PriorityBlockingQueue.forEach calls its action under the queue's lock: so do we.
        Lock lock = aux instanceof Lock ? (Lock) aux : null;
        if (lock != null) {
            lock.lock();
        }
        try {
            FlakescanSnapshot snapshot = permutedSnapshot(owner, api, handler);
            if (snapshot == null) {
                return null;
            }
            return toString ? FlakescanLoops.mapToString(snapshot, owner) : FlakescanLoops.forEach(snapshot, arg, handler);
        } finally {
            if (lock != null) {
                lock.unlock();
            }
        }
    }

    private static FlakescanSnapshot permutedSnapshot(Object owner, String api, String handler) {
        if (!FlakescanState.enter()) {
            return null;
        }
        try {
            FlakescanSite site = admit(api, FlakescanSnapshot.sizeOf(owner));
            return site == null ? null : take(owner, viewOf(handler), site);
        } catch (Throwable ours) {
            return null;
        } finally {
            FlakescanState.exit();
        }
    }

    private static Object shuffled(Object value, Object owner, String api, String handler) {
        if (handler.startsWith("array")) {
            Object[] array = (Object[]) value;
            int n = array.length;
            if (handler.equals("array size")) {
                n = Math.min(n, FlakescanSnapshot.sizeOf(owner));
            } else if (handler.equals("array nonnull")) {
                n = 0;
                while (n < array.length && array[n] != null) {
                    n++;
                }
            }
            return permuteArray(array, n, api);
        }
        FlakescanSite site = admit(api, FlakescanSnapshot.sizeOf(owner));
        if (site == null) {
            return value;
        }
        int view = viewOf(handler);
        if (handler.startsWith("spliterator")) {
            return new FlakescanSpliterator((Spliterator<?>) value, owner, view, site);
        }
        FlakescanSnapshot snapshot = take(owner, view, site);
        if (snapshot == null) {
            return value;
        }
        return new FlakescanIterator(snapshot, handler.startsWith("enumeration"));
    }

    /** The site of this call when it is to be shuffled; null otherwise (it is recorded as seen when eligible). */
    static FlakescanSite admit(String api, int size) {
        if (size < 2) {
            return null;
        }
        FlakescanSite site = FlakescanSite.locate(api);
        if (site == null || !FlakescanState.admit(site, size)) {
            return null;
        }
        return site;
    }

    /** The elements of owner's view, permuted for this site; null when fewer than 2 are left. */
    static FlakescanSnapshot take(Object owner, int view, FlakescanSite site) {
        FlakescanSnapshot snapshot = FlakescanSnapshot.take(owner, view);
        if (snapshot == null || snapshot.size() < 2) {
            return null;
        }
        snapshot.permute(FlakescanState.permutation(site, snapshot.size()));
        FlakescanState.shuffled(site, snapshot.size());
        return snapshot;
    }

    private static Object[] permuteArray(Object[] array, int n, String api) {
        FlakescanSite site = admit(api, n);
        if (site == null) {
            return array;
        }
        int[] order = FlakescanState.permutation(site, n);
        Object[] plain = new Object[n];
        System.arraycopy(array, 0, plain, 0, n);
        for (int i = 0; i < n; i++) {
            array[i] = plain[order[i]];
        }
        FlakescanState.shuffled(site, n);
        return array;
    }

    private static int viewOf(String handler) {
        if (handler.endsWith(" keys")) {
            return FlakescanSnapshot.KEYS;
        }
        if (handler.endsWith(" values")) {
            return FlakescanSnapshot.VALUES;
        }
        if (handler.endsWith(" elements")) {
            return FlakescanSnapshot.ELEMENTS;
        }
        return FlakescanSnapshot.ENTRIES;  // "entries", and "pairs" (BiConsumer, toString)
    }
}
