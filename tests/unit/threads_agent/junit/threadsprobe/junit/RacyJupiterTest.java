package threadsprobe.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** JUnit 5 tests the runner runs under the threads agent (tests/unit/threads_agent). */
class RacyJupiterTest {
    static final class Counter {
        int count;

        void increment() {
            count++;
        }
    }

    private static int raceTwice() throws InterruptedException {
        Counter c = new Counter();
        Thread a = new Thread(() -> { c.increment(); c.increment(); });
        a.start();
        c.increment();
        c.increment();
        a.join();
        return c.count;
    }

    @Test
    void lostUpdate() throws InterruptedException {
        assertEquals(4, raceTwice());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void lostUpdateWithTimeout() throws InterruptedException {
        assertEquals(4, raceTwice());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void lostUpdateInSeparateThread() throws InterruptedException {
        assertEquals(4, raceTwice());
    }
}
