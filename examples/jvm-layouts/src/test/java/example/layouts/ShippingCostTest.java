package example.layouts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.layouts.app.Shipping;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** JUnit 5 @ParameterizedTest. One case, FR, is an order-dependent victim: it fails after
 *  HolidaySurchargeTest#addsSurchargeForFrance, which leaves a surcharge on France behind. */
class ShippingCostTest {
    @ParameterizedTest
    @CsvSource({"DE, 5", "FR, 7", "NL, 6"})
    void costsPerCountry(String country, int cost) {
        assertEquals(cost, Shipping.costFor(country), "shipping to " + country);
    }
}
