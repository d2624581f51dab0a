package example.order.session;

import static org.junit.Assert.assertEquals;

import example.order.app.Session;
import org.junit.Test;

/** JUnit 4. greetsGuest is a victim: it passes alone and fails right after
 *  SessionPolluterTest.signsInAdmin when that ran last of its class (see there). */
public class GuestGreetingTest {
    @Test
    public void greetsGuest() {
        assertEquals("Hello, guest", Session.greeting());
    }
}
