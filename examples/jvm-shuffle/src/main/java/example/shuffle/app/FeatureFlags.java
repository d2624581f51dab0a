package example.shuffle.app;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Feature switches read at start-up; a flag that was never set is off. */
public final class FeatureFlags {
    private final Map<String, Boolean> flags = new HashMap<>();

    public void set(String name, boolean on) {
        flags.put(name, on);
    }

    public boolean isOn(String name) {
        return flags.getOrDefault(name, false);
    }

    /** The names of all flags that were set, on or off; a set, in no particular order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(flags.keySet());
    }
}
