package example.shuffle.app;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** The headers of an outgoing HTTP request; setting a header again replaces its value. */
public final class Headers {
    private final Map<String, String> values = new HashMap<>();

    public Headers set(String name, String value) {
        values.put(name, value);
        return this;
    }

    public String get(String name) {
        return values.get(name);
    }

    /** A read-only view; its toString() is the HashMap's, in the HashMap's order. */
    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }
}
