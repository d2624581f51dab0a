package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.Region;
import org.junit.Test;

/** Pair h, brittle: fails alone (no region selected), passes after RegionStateSetterTest. */
public class RegionBrittleTest {
    @Test
    public void pricesInEuros() {
        assertEquals("EUR", Region.currencyOf());
    }
}
