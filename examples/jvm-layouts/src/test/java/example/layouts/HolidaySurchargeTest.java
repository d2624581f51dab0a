package example.layouts;

import static org.junit.Assert.assertEquals;

import example.layouts.app.Shipping;
import org.junit.Test;

/** JUnit 4. addsSurchargeForFrance is the polluter of ShippingCostTest#costsPerCountry's FR
 *  case: it adds a surcharge to a static map and never takes it back. */
public class HolidaySurchargeTest {
    @Test
    public void addsSurchargeForFrance() {
        int before = Shipping.costFor("FR");
        Shipping.addSurcharge("FR", 3);
        assertEquals(before + 3, Shipping.costFor("FR"));
    }

    @Test
    public void germanyHasNoSurcharge() {
        assertEquals(5, Shipping.costFor("DE"));
    }
}
