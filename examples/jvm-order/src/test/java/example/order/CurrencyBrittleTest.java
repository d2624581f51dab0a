package example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.order.app.Settings;
import org.junit.jupiter.api.Test;

/** JUnit 5. formatsInCurrency is brittle: it fails alone and passes only after
 *  SettingsLoaderTest.loadsSettings (its state-setter). */
class CurrencyBrittleTest {
    @Test
    void formatsInCurrency() {
        assertEquals("12 EUR", 12 + " " + Settings.currency());
    }
}
