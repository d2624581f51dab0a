package example.threads.lostupdate;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** JUnit 4. Lost update: two threads count hits on one counter. */
public class HitCounterTest {
    private static final int HITS_PER_THREAD = 100;

    @Test
    public void countsHitsFromTwoThreads() throws InterruptedException {
        HitCounter counter = new HitCounter();
        inTwoThreads(counter::record);
        assertEquals(2 * HITS_PER_THREAD, counter.hits());
    }

    @Test
    public void countsHitsFromTwoThreadsAtomically() throws InterruptedException {
        AtomicHitCounter counter = new AtomicHitCounter();
        inTwoThreads(counter::record);
        assertEquals(2 * HITS_PER_THREAD, counter.hits());
    }

    private static void inTwoThreads(Runnable hit) throws InterruptedException {
        Runnable hits = () -> {
            for (int i = 0; i < HITS_PER_THREAD; i++) {
                hit.run();
            }
        };
        Thread a = new Thread(hits, "visitor-a");
        Thread b = new Thread(hits, "visitor-b");
        a.start();
        b.start();
        a.join();
        b.join();
    }
}
