package threadsprobe.junit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** JUnit 4 tests the runner runs under the threads agent (tests/unit/threads_agent). */
public class RacyJUnit4Test {
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
    public void lostUpdate() throws InterruptedException {
        assertEquals(4, raceTwice());
    }

    /** JUnit 4 runs the body in a thread of its own ("Time-limited test"). */
    @Test(timeout = 20000)
    public void lostUpdateWithTimeout() throws InterruptedException {
        assertEquals(4, raceTwice());
    }

    /**
     * Two threads take two monitors in opposite orders while JUnit's own thread waits for the
     * body outside control (a timed Future.get): the deadlock must still be declared, not left
     * for JUnit's timeout to end.
     */
    @Test(timeout = 30000)
    public void lockOrderWithTimeout() throws InterruptedException {
        Object first = new Object();
        Object second = new Object();
        Thread a = new Thread(() -> {
            synchronized (first) {
                synchronized (second) {
                    first.hashCode();
                }
            }
        });
        Thread b = new Thread(() -> {
            synchronized (second) {
                synchronized (first) {
                    second.hashCode();
                }
            }
        });
        a.start();
        b.start();
        a.join();
        b.join();
    }

    @Test
    public void singleThreaded() {
        Counter c = new Counter();
        c.increment();
        assertEquals(1, c.count);
    }
}
