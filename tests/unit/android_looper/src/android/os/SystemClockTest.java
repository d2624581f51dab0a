package android.os;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** SystemClock: monotonic uptime; sleep defers interrupts instead of throwing. */
public class SystemClockTest {
    @Test
    public void uptimeNeverGoesBackwards() {
        long previous = SystemClock.uptimeMillis();
        for (int i = 0; i < 10_000; i++) {
            long now = SystemClock.uptimeMillis();
            assertTrue(now >= previous);
            previous = now;
        }
    }

    @Test
    public void sleepWaitsItsTimeAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        long start = SystemClock.uptimeMillis();
        SystemClock.sleep(20);
        assertTrue("slept less than asked", SystemClock.uptimeMillis() - start >= 20);
        assertTrue("interrupt re-asserted", Thread.interrupted());
    }
}
