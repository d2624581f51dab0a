package example.shuffle.app;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * When each live session was last seen. Weak keys: once the web layer drops a session
 * object, its entry goes away without anyone having to remove it.
 */
public final class SessionRegistry {
    private final Map<Session, Long> lastSeen = new WeakHashMap<>();

    public void touch(Session session, long millis) {
        lastSeen.put(session, millis);
    }

    public Long lastSeen(Session session) {
        return lastSeen.get(session);
    }

    /** The live sessions; a set, in no particular order. */
    public Set<Session> sessions() {
        return Collections.unmodifiableSet(lastSeen.keySet());
    }
}
