package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.FeatureFlags;
import org.junit.Test;

/** Pair c, polluter: sets the system property flags.mode to "beta" and leaves it set. */
public class SystemPropertyPolluterTest {
    @Test
    public void switchesToBeta() {
        System.setProperty("flags.mode", "beta");
        assertEquals("beta", FeatureFlags.mode());
    }
}
