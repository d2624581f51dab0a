package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.Region;
import org.junit.Test;

/** Pair h, state-setter: selects the region the brittle test needs and leaves it selected. */
public class RegionStateSetterTest {
    @Test
    public void selectsEurope() {
        Region.select("eu");
        assertEquals("eu", Region.current());
    }
}
