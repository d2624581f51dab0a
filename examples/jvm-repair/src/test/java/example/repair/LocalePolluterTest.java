package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.PriceFormatter;
import java.util.Locale;
import org.junit.Test;

/** Pair d, polluter: makes Germany the JVM's default locale and leaves it so. */
public class LocalePolluterTest {
    @Test
    public void formatsForGermany() {
        Locale.setDefault(Locale.GERMANY);
        assertEquals("1,50", PriceFormatter.format(1.5));
    }
}
