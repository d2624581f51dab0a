package demo.basic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** JUnit 5. Plainly stable tests. */
class MathTest {
    @Test
    void adds() {
        assertEquals(4, 2 + 2);
    }

    @Test
    void dividesByZeroThrows() {
        assertThrows(ArithmeticException.class, () -> {
            int zero = 0;
            int unused = 1 / zero;
        });
    }
}
