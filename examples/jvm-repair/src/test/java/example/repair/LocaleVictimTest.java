package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.PriceFormatter;
import org.junit.Test;

/** Pair d, victim: expects a decimal point (true for the JVM's own default locale, en here). */
public class LocaleVictimTest {
    @Test
    public void formatsWithDecimalPoint() {
        assertEquals("1.50", PriceFormatter.format(1.5));
    }
}
