package example.order.session;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import example.order.app.Session;
import org.junit.Before;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

/** JUnit 4. signsInAdmin is a polluter that its own class hides: every test of the class
 *  signs the user out first (@Before), so the admin it leaves signed in survives only when it
 *  is the last of the class to run, and GuestGreetingTest.greetsGuest (the victim) comes
 *  after it with no SessionAuditTest (which signs out too) in between. Random class-then-
 *  method shuffles rarely do that; orders that cover pairs do. */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)  // signsInAdmin is neither first nor last here
public class SessionPolluterTest {
    @Before
    public void signOut() {
        Session.signOut();
    }

    @Test
    public void admitsGuest() {
        assertEquals("Hello, guest", Session.greeting());
    }

    @Test
    public void greetsSignedInUser() {
        Session.signIn("ana");
        assertEquals("Hello, ana", Session.greeting());
        Session.signOut();
    }

    @Test
    public void keepsOneUser() {
        Session.signIn("bo");
        Session.signIn("cy");
        assertEquals("Hello, cy", Session.greeting());
        Session.signOut();
    }

    @Test
    public void signsInAdmin() {
        Session.signIn("admin");
        assertTrue(Session.signedIn());
    }

    @Test
    public void signsOut() {
        Session.signIn("dee");
        Session.signOut();
        assertEquals("Hello, guest", Session.greeting());
    }

    @Test
    public void startsSignedOut() {
        assertEquals(false, Session.signedIn());
    }
}
