package threadsprobe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The scenarios (see Scenarios) of issue 33's second round: check-then-act on JDK collections
 * (calls on a HashMap are steps) and their twins, objects that never leave a method (no steps),
 * a lock-order deadlock behind timed joins, and a task handed to a pool made by
 * Executors.newSingleThreadExecutor with a ThreadFactory of the project.
 */
final class CollectionScenarios {
    private CollectionScenarios() {}

    static final class Registry {
        private final Map<String, Object> entries = new HashMap<>();

        Object lookup(String key) {
            if (!entries.containsKey(key)) entries.put(key, new Object());
            return entries.get(key);
        }

        synchronized Object lookupSafely(String key) {
            return lookup(key);
        }
    }

    static final class ConcurrentRegistry {
        private final Map<String, Object> entries = new ConcurrentHashMap<>();

        Object lookup(String key) {
            return entries.computeIfAbsent(key, k -> new Object());
        }
    }

    /** Two threads ask for one key: both may miss and each put its own object. */
    static void checkThenAct() throws InterruptedException {
        Registry r = new Registry();
        check(r::lookup);
    }

    static void checkThenActSynchronized() throws InterruptedException {
        Registry r = new Registry();
        check(r::lookupSafely);
    }

    static void checkThenActConcurrent() throws InterruptedException {
        ConcurrentRegistry r = new ConcurrentRegistry();
        check(r::lookup);
    }

    private static void check(java.util.function.Function<String, Object> lookup) throws InterruptedException {
        Object[] got = new Object[2];
        Thread a = new Thread(() -> got[0] = lookup.apply("k"));
        Thread b = new Thread(() -> got[1] = lookup.apply("k"));
        a.start();
        b.start();
        a.join();
        b.join();
        if (got[0] != got[1]) throw new AssertionError("two objects for one key");
    }

    /** A list and a StringBuilder that never leave the method that made them: their calls are not steps. */
    static String describe(int n) {
        List<Integer> scratch = new ArrayList<>();
        for (int i = 0; i < n; i++) scratch.add(i);
        StringBuilder out = new StringBuilder();
        for (int x : scratch) out.append(x).append(',');
        return out.toString();
    }

    /** A table filled here and then returned: it leaves only after the puts, which are no steps; the caller's calls are. */
    static Map<String, Integer> table(int n) {
        Map<String, Integer> t = new HashMap<>();
        for (int i = 0; i < n; i++) t.put("k" + i, i);
        return t;
    }

    static void confinedLocals() throws InterruptedException {
        String[] got = new String[1];
        int[] size = new int[1];
        Thread t = new Thread(() -> {
            got[0] = describe(3);
            size[0] = table(3).size();
        });
        t.start();
        t.join();
        if (!"0,1,2,".equals(got[0]) || size[0] != 3) throw new AssertionError(got[0] + " " + size[0]);
    }

    /** Two threads take two ReentrantLocks in opposite orders; the test joins them with a timeout and fails on its own. */
    static void timedJoinDeadlock() throws InterruptedException {
        ReentrantLock left = new ReentrantLock();
        ReentrantLock right = new ReentrantLock();
        Thread a = new Thread(() -> { left.lock(); try { right.lock(); right.unlock(); } finally { left.unlock(); } }, "left-first");
        Thread b = new Thread(() -> { right.lock(); try { left.lock(); left.unlock(); } finally { right.unlock(); } }, "right-first");
        a.setDaemon(true);
        b.setDaemon(true);
        a.start();
        b.start();
        a.join(2000);
        b.join(2000);
        if (a.isAlive() || b.isAlive()) throw new AssertionError("the two threads did not finish");
    }

    static final class Audit {
        private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "audit-writer");
            t.setDaemon(true);
            return t;
        });
        private final List<String> entries = new ArrayList<>();

        void record(String entry) {
            writer.submit(() -> entries.add(entry));
        }
    }

    /** The same task waited for with shutdown and awaitTermination: never fails, exactly. */
    static void awaitTermination() throws InterruptedException {
        Audit audit = new Audit();
        audit.record("placed");
        audit.writer.shutdown();
        if (!audit.writer.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)) throw new AssertionError("not terminated");
        if (audit.entries.size() != 1) throw new AssertionError("not audited");
    }

    /** A task on a single-thread executor (a wrapper of a pool) with a project ThreadFactory, not waited for. */
    static void singleThreadExecutor() {
        Audit audit = new Audit();
        try {
            audit.record("placed");
            if (audit.entries.size() != 1) throw new AssertionError("not audited yet");
        } finally {
            audit.writer.shutdown();
        }
    }
}
