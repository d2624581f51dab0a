package example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.order.app.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** JUnit 5. Signs the user out before each test, so it cleans up after
 *  SessionPolluterTest.signsInAdmin when it runs between that and GuestGreetingTest. */
class SessionAuditTest {
    @BeforeEach
    void signOut() {
        Session.signOut();
    }

    @Test
    void recordsWhoIsSignedIn() {
        Session.signIn("auditor");
        assertEquals("Hello, auditor", Session.greeting());
        Session.signOut();
    }

    @Test
    void startsAsGuest() {
        assertEquals("Hello, guest", Session.greeting());
    }
}
