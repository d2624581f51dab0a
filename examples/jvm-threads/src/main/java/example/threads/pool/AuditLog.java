package example.threads.pool;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Writes audit entries on a background thread so that callers never wait for the write. */
public class AuditLog {
    private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(task, "audit-writer");
        t.setDaemon(true);
        return t;
    });
    private volatile String last;
    private volatile int written;

    /** Queues the entry; the returned future completes when it is written. */
    public Future<?> record(String entry) {
        return writer.submit(() -> {
            last = entry;
            written = written + 1; // RACE: the pool thread writes whenever it gets here
        });
    }

    public int written() {
        return written; // RACE: read by the caller, written or not
    }

    public String last() {
        return last;
    }

    /** Stops taking entries; does not wait for the queued ones. */
    public void shutdown() {
        writer.shutdown();
    }
}
