package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Handle;
import example.shuffle.app.ResourceTracker;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * JUnit 5. IdentityHashMap read twice in main code (ResourceTracker.leakReport). The plain
 * order of an IdentityHashMap follows identity hash codes, which differ from JVM to JVM (with
 * the classes loaded before, -Xshare, the GC), so neither test here depends on it: both
 * compare sets of lines. What the implementation-dependent one depends on is that keySet()
 * and values() of one map walk it in the same order.
 */
class ResourceTrackerTest {
    private static final Set<String> LEAKS = Set.of(
            "/var/log/app.log#3 <- carol",
            "/var/log/app.log#4 <- alice",
            "/data/orders.db#5 <- dave",
            "/tmp/upload.part#6 <- bob");

    private static ResourceTracker leaky() {
        ResourceTracker tracker = new ResourceTracker();
        tracker.open("/var/log/app.log", "carol");
        tracker.open("/var/log/app.log", "alice");
        tracker.open("/data/orders.db", "dave");
        tracker.open("/tmp/upload.part", "bob");
        tracker.close(tracker.open("/etc/app.conf", "erin"));
        return tracker;
    }

    /**
     * Implementation-dependent: leakReport() pairs keySet() with values() by position. No
     * small fix repairs it: a LinkedHashMap would merge the two equal app.log handles, and
     * sorting the two lists separately pairs the wrong owners.
     */
    @Test
    void reportsEachLeakWithItsOwner() {
        assertEquals(new TreeSet<>(LEAKS), new TreeSet<>(leaky().leakReport()));
    }

    /** Twin: the same report built from the entries, so each handle keeps its owner. */
    @Test
    void tracksEachOpenHandle() {
        Set<String> lines = new TreeSet<>();
        for (Map.Entry<Handle, String> open : leaky().openHandles().entrySet()) {
            lines.add(open.getKey() + " <- " + open.getValue());
        }
        assertEquals(new TreeSet<>(LEAKS), lines);
    }
}
