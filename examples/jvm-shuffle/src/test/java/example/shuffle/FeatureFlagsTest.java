package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.FeatureFlags;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JUnit 5. HashMap.keySet() iterated in test code. */
class FeatureFlagsTest {
    private static FeatureFlags release() {
        FeatureFlags flags = new FeatureFlags();
        flags.set("new-checkout", true);
        flags.set("gift-cards", false);
        flags.set("fast-login", true);
        flags.set("price-alerts", false);
        return flags;
    }

    /**
     * Implementation-dependent: expects the listing sorted by flag name, which these four
     * names happen to get from the HashMap. Fixed by a TreeMap in FeatureFlags (or a TreeSet
     * around names() here); a LinkedHashMap would give new-checkout first.
     */
    @Test
    void listsFlagsAlphabetically() {
        FeatureFlags flags = release();
        StringBuilder listing = new StringBuilder();
        for (String name : flags.names()) { // shuffle-site
            listing.append(name).append(flags.isOn(name) ? " on" : " off").append('\n');
        }
        assertEquals("fast-login on\ngift-cards off\nnew-checkout on\nprice-alerts off\n", listing.toString());
    }

    /** Twin: the same flags collected into a map. */
    @Test
    void knowsEveryFlag() {
        FeatureFlags flags = release();
        Map<String, Boolean> states = new HashMap<>();
        for (String name : flags.names()) {
            states.put(name, flags.isOn(name));
        }
        assertEquals(Map.of("new-checkout", true, "gift-cards", false, "fast-login", true, "price-alerts", false),
                states);
    }
}
