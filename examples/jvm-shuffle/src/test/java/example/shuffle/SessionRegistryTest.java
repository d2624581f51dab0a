package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Session;
import example.shuffle.app.SessionRegistry;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * JUnit 5. WeakHashMap.keySet() iterated in test code. The sessions stay strongly reachable
 * until the end of each test (reachabilityFence), so no entry can be collected meanwhile.
 */
class SessionRegistryTest {
    private static List<Session> signIn(SessionRegistry registry) {
        List<Session> sessions = List.of(
                new Session("grace"), new Session("alice"), new Session("frank"), new Session("bob"));
        for (Session session : sessions) {
            registry.touch(session, 1_700_000_000_000L);
        }
        return sessions;
    }

    /**
     * Implementation-dependent: expects the users sorted, which these four names happen to
     * get from the WeakHashMap. Fixed by sorting before the comparison (or comparing as
     * sets); the sign-in order would be grace, alice, frank, bob.
     */
    @Test
    void listsSignedInUsersAlphabetically() {
        SessionRegistry registry = new SessionRegistry();
        List<Session> signedIn = signIn(registry);
        List<String> users = new ArrayList<>();
        for (Session session : registry.sessions()) { // shuffle-site
            users.add(session.userId());
        }
        assertEquals(List.of("alice", "bob", "frank", "grace"), users);
        Reference.reachabilityFence(signedIn);
    }

    /** Twin: the same users compared as a set. */
    @Test
    void knowsEverySignedInUser() {
        SessionRegistry registry = new SessionRegistry();
        List<Session> signedIn = signIn(registry);
        Set<String> users = new HashSet<>();
        for (Session session : registry.sessions()) {
            users.add(session.userId());
        }
        assertEquals(Set.of("alice", "bob", "frank", "grace"), users);
        Reference.reachabilityFence(signedIn);
    }
}
