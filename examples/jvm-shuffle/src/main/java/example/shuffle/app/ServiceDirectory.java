package example.shuffle.app;

import java.util.Collections;
import java.util.Hashtable;
import java.util.List;

/** Endpoints of the back-end services by name. Old code: it still uses Hashtable and Enumeration. */
public final class ServiceDirectory {
    private final Hashtable<String, String> endpoints = new Hashtable<>();

    public void register(String service, String url) {
        endpoints.put(service, url);
    }

    public String endpoint(String service) {
        return endpoints.get(service);
    }

    /**
     * The registered service names for the status page, which shows them alphabetically.
     * Nothing sorts them: they come in the order the Hashtable enumerates its keys.
     */
    public List<String> names() {
        return Collections.list(endpoints.keys()); // shuffle-site
    }
}
