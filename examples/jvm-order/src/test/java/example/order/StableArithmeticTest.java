package example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** JUnit 5. Stable tests: no shared state, same outcome in every order. */
class StableArithmeticTest {
    @Test
    void adds() { assertEquals(4, 2 + 2); }

    @Test
    void multiplies() { assertEquals(6, 2 * 3); }

    @Test
    void formats() { assertEquals("7", String.valueOf(7)); }
}
