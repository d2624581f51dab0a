package demo.basic;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/** Computes a price on a background thread, like a service that calls a remote backend. */
public final class PriceService {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "price-service");
        t.setDaemon(true);
        return t;
    });
    private volatile Integer lastPrice;

    /**
     * Starts the lookup; the result lands in lastPrice() at once when the backend answers from
     * its cache (about every other lookup), after 200 ms of "network" when it does not.
     */
    public CompletableFuture<Integer> refresh() {
        boolean cached = ThreadLocalRandom.current().nextBoolean();
        return CompletableFuture.supplyAsync(() -> {
            if (!cached) sleep(200);
            lastPrice = 42;
            return 42;
        }, POOL);
    }

    public Integer lastPrice() { return lastPrice; }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
