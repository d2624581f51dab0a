package example.layouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** JUnit 5 dynamic tests (@TestFactory), @RepeatedTest and @Disabled; all stable. */
class ReceiptTest {
    static String euros(int cents) {
        return String.format(Locale.ROOT, "%d.%02d EUR", cents / 100, cents % 100);
    }

    @TestFactory
    Stream<DynamicTest> formatsEveryLine() {
        return Stream.of(new int[] {350, 280, 5})
                .map(c -> dynamicTest(c[0] + " cents", () -> assertEquals(c[0], Integer.parseInt(euros(c[0]).replaceAll("[^0-9]", "")))));
    }

    @RepeatedTest(3)
    void formatsTotal() {
        assertEquals("6.30 EUR", euros(630));
    }

    @Disabled("waits for the tax service")
    @Test
    void appliesTax() {
        throw new AssertionError("a disabled test must never run");
    }
}
