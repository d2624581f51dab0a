package example.layouts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.layouts.app.Cart;
import org.junit.jupiter.api.Test;

/** Stable JUnit 5 tests. */
class MoneyTest {
    @Test
    void addsPrices() {
        Cart cart = new Cart();
        cart.add(350);
        cart.add(280);
        assertEquals(630, cart.total());
    }

    @Test
    void formatsEuros() {
        assertEquals("0.05 EUR", ReceiptTest.euros(5));
    }
}
