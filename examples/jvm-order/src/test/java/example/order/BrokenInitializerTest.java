package example.order;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** JUnit 4. The class initialiser throws, so every test here errors in every order:
 *  consistently broken, not flaky. */
public class BrokenInitializerTest {
    static final int LIMIT = Integer.parseInt(System.getProperty("example.limit", "not a number"));

    @Test
    public void usesLimit() {
        assertEquals(10, LIMIT);
    }

    @Test
    public void usesLimitAgain() {
        assertEquals(10, LIMIT + 0);
    }
}
