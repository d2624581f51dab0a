package example.threads.lostupdate;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts page hits; the increment is one atomic step. */
public class AtomicHitCounter {
    private final AtomicInteger hits = new AtomicInteger();

    public void record() {
        hits.incrementAndGet();
    }

    public int hits() {
        return hits.get();
    }
}
