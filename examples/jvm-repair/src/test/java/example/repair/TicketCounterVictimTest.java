package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.TicketCounter;
import org.junit.Test;

/** Pair f, victim: expects to get the first ticket. No method resets the counter. */
public class TicketCounterVictimTest {
    @Test
    public void getsTicketOne() {
        assertEquals(1, TicketCounter.next());
    }
}
