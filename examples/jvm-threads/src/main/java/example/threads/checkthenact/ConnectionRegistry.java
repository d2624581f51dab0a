package example.threads.checkthenact;

import java.util.HashMap;
import java.util.Map;

/** Hands out one shared connection per host. Not thread-safe: the check and the put are two steps. */
public class ConnectionRegistry {
    private final Map<String, Connection> connections = new HashMap<>();

    public Connection connectionFor(String host) {
        if (!connections.containsKey(host)) { // RACE: both threads can see "no connection yet"
            connections.put(host, new Connection(host)); // RACE: the second put replaces the first connection
        }
        return connections.get(host);
    }
}
