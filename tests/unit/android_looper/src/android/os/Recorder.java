package android.os;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a HandlerThread whose loop is held by a gate message until {@link #open()}, so
 * a test can enqueue a batch first and then observe the dispatch order; every dispatched item
 * is appended to {@link #order()}.
 */
final class Recorder {
    final HandlerThread thread;
    final Handler handler;
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch gateEntered = new CountDownLatch(1);
    private final List<String> order = new ArrayList<>();  // guarded by itself

    Recorder(String name) {
        thread = new HandlerThread(name);
        thread.start();
        handler = new Handler(thread.getLooper(), msg -> {
            record("what" + msg.what);
            return true;
        });
        handler.postAtFrontOfQueue(() -> {
            gateEntered.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            // From here on the queue holds only what the test enqueues.
            if (!gateEntered.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("looper did not start");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    Runnable item(String label) {
        return () -> record(label);
    }

    void record(String label) {
        synchronized (order) {
            order.add(label);
            order.notifyAll();
        }
    }

    void open() {
        gate.countDown();
    }

    /** Waits until {@code n} items were dispatched and returns them. */
    List<String> awaitItems(int n) throws InterruptedException {
        synchronized (order) {
            while (order.size() < n) {
                order.wait();
            }
            return new ArrayList<>(order);
        }
    }

    List<String> order() {
        synchronized (order) {
            return new ArrayList<>(order);
        }
    }

    /** Runs {@code r} on the looper thread and waits for it (after everything due before). */
    void sync(Runnable r) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        handler.post(() -> {
            r.run();
            done.countDown();
        });
        if (!done.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("looper did not run the sync task");
        }
    }

    void quit() throws InterruptedException {
        thread.quit();
        thread.join(10_000);
    }
}
