package example.threads.checkthenact;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Hands out one shared connection per host; computeIfAbsent checks and creates in one step. */
public class ConcurrentConnectionRegistry {
    private final ConcurrentMap<String, Connection> connections = new ConcurrentHashMap<>();

    public Connection connectionFor(String host) {
        return connections.computeIfAbsent(host, Connection::new);
    }
}
