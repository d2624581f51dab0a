package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.UserSession;
import org.junit.Test;

/** Pair b, polluter: logs "admin" in and never logs out. */
public class SingletonPolluterTest {
    @Test
    public void logsInAdmin() {
        UserSession.get().login("admin");
        assertEquals("admin", UserSession.get().currentUser());
    }
}
