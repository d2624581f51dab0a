package demo.basic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** JUnit 5. Non-idempotent outcome: passes once, fails when run again in the same JVM. */
class CounterTest {
    static final AtomicInteger VISITS = new AtomicInteger();

    @Test
    void countsFirstVisit() {
        assertEquals(1, VISITS.incrementAndGet());
    }
}
