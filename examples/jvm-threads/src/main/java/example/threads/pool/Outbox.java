package example.threads.pool;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Sends mail on a pool thread; close() waits for what was queued. */
public class Outbox implements AutoCloseable {
    private final ExecutorService sender = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(task, "outbox-sender");
        t.setDaemon(true);
        return t;
    });
    private volatile String lastTo;
    private volatile int sent;

    public void send(String to, String body) {
        sender.submit(() -> {
            lastTo = to;
            sent = sent + 1; // RACE: the pool thread sends whenever it gets here
        });
    }

    public int sent() {
        return sent; // RACE: read by the caller, sent or not
    }

    public String lastTo() {
        return lastTo;
    }

    /** Stops taking mail and waits (at most 5 s) until every queued mail is sent. */
    @Override
    public void close() throws InterruptedException {
        sender.shutdown();
        sender.awaitTermination(5, TimeUnit.SECONDS);
    }
}
