package example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.order.app.Settings;
import org.junit.jupiter.api.Test;

/** JUnit 5. loadsSettings is the state-setter of CurrencyBrittleTest.formatsInCurrency. */
class SettingsLoaderTest {
    @Test
    void loadsSettings() {
        Settings.load();
        assertEquals("EUR", Settings.currency());
    }
}
