package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.FeatureFlags;
import org.junit.Test;

/** Pair c, victim: expects the default mode. */
public class SystemPropertyVictimTest {
    @Test
    public void usesStandardMode() {
        assertEquals("standard", FeatureFlags.mode());
    }
}
