package example.layouts;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Starts a non-daemon thread that never ends and passes: the JVM must still end when the
 *  runner is done. Stable. */
class BackgroundWorkerTest {
    @Test
    void startsAWorkerThatNeverStops() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            started.countDown();
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // keeps running, as a leaked pool thread does
                }
            }
        }, "leaked-worker");
        worker.start();
        assertTrue(started.await(30, TimeUnit.SECONDS));
        assertTrue(worker.isAlive() && !worker.isDaemon());
    }
}
