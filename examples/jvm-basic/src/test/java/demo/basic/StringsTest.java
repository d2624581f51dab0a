package demo.basic;

import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;

/** JUnit 4. Plainly stable tests, and one ignored test. */
public class StringsTest {
    @Test
    public void joins() {
        assertEquals("a,b", String.join(",", "a", "b"));
    }

    @Test
    public void upperCases() {
        assertEquals("FLAKE", "flake".toUpperCase(java.util.Locale.ROOT));
    }

    @Ignore("kept to show a skipped test")
    @Test
    public void ignored() {
        assertEquals(1, 2);
    }
}
