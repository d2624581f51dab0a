package example.order;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** JUnit 4. Stable tests. */
public class StableTextTest {
    @Test
    public void upperCases() { assertEquals("ABC", "abc".toUpperCase(java.util.Locale.ROOT)); }

    @Test
    public void trims() { assertEquals("x", " x ".trim()); }
}
