package example.threads.sleepwait;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The average of the latest quotes, refreshed on a thread of its own. */
public class PriceFeed {
    private final CountDownLatch refreshed = new CountDownLatch(1);
    private volatile long price;

    public void startRefresh(long[] quotes) {
        Thread refresh = new Thread(() -> {
            long sum = 0;
            for (long q : quotes) {
                sum += q;
            }
            price = sum / quotes.length; // RACE: set whenever the refresh thread gets here
            refreshed.countDown();
        }, "price-refresh");
        refresh.setDaemon(true);
        refresh.start();
    }

    public long price() {
        return price; // RACE: read by the caller, refreshed or not
    }

    /** True when the refresh finished within the timeout. */
    public boolean awaitRefresh(long timeoutMs) throws InterruptedException {
        return refreshed.await(timeoutMs, TimeUnit.MILLISECONDS);
    }
}
