package example.repair;

import static org.junit.Assert.assertTrue;

import example.repair.app.TicketCounter;
import org.junit.Test;

/** Pair f, polluter: takes a ticket, which nothing can give back. */
public class TicketCounterPolluterTest {
    @Test
    public void takesATicket() {
        assertTrue(TicketCounter.next() >= 1);
    }
}
