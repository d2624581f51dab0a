package example.repair;

import static org.junit.Assert.assertNull;

import example.repair.app.UserSession;
import org.junit.Test;

/** Pair b, victim: expects a guest (no user logged in). */
public class SingletonVictimTest {
    @Test
    public void startsAsGuest() {
        assertNull(UserSession.get().currentUser());
    }
}
