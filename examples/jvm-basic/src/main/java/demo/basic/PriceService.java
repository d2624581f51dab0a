package demo.basic;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

/** Computes a price on a background thread, like a service that calls a remote backend. */
public final class PriceService {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "price-service");
        t.setDaemon(true);
        return t;
    });
    private volatile Integer lastPrice;

    /** Starts the lookup; the result lands in lastPrice() after about 30 ms of "network". */
    public CompletableFuture<Integer> refresh() {
        return CompletableFuture.supplyAsync(() -> {
            sleep(30);
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
