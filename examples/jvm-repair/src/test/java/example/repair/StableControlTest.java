package example.repair;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.Test;

/** Control: tests that share no state (nothing static, no locale, zone or property). */
public class StableControlTest {
    @Test
    public void addsIntegers() {
        assertEquals(7, 3 + 4);
    }

    @Test
    public void buildsItsOwnList() {
        List<String> names = new ArrayList<>();
        names.add("carol");
        assertEquals(List.of("carol"), names);
    }

    @Test
    public void upperCasesInRootLocale() {
        assertEquals("TICKET", "ticket".toUpperCase(Locale.ROOT));
    }
}
