package example.threads.checkthenact;

/** A connection to one host; the registries below should open at most one per host. */
public class Connection {
    private final String host;

    public Connection(String host) {
        this.host = host;
    }

    public String host() {
        return host;
    }
}
