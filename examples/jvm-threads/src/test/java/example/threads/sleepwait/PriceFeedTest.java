package example.threads.sleepwait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** JUnit 5. A sleep used as a wait: the test gives the refresh thread 50 ms instead of waiting for it. */
class PriceFeedTest {
    private static final long[] QUOTES = {10_150, 10_170, 10_160, 10_140};

    @Test
    void refreshAveragesTheQuotes() throws InterruptedException {
        PriceFeed feed = new PriceFeed();
        feed.startRefresh(QUOTES);
        Thread.sleep(50); // RACE: hopes the refresh thread is done by now
        assertEquals(10_155, feed.price());
    }

    @Test
    void refreshAveragesTheQuotesAwaitingTheLatch() throws InterruptedException {
        PriceFeed feed = new PriceFeed();
        feed.startRefresh(QUOTES);
        assertTrue(feed.awaitRefresh(5000), "the refresh did not finish within 5 s");
        assertEquals(10_155, feed.price());
    }
}
