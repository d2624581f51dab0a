package example.layouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.layouts.app.Cart;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** JUnit 5 @Nested classes. Their tests are ids of the nested class: CartTest$WithOneItem#...
 *  Checkout#firstOrderIsNumberOne is NIO: the order counter is static, so the second run of
 *  the test in one JVM gets number 2. */
class CartTest {
    Cart cart;

    @BeforeEach
    void newCart() {
        cart = new Cart();
    }

    @Test
    void startsEmpty() {
        assertTrue(cart.isEmpty());
    }

    @Nested
    class WithOneItem {
        @BeforeEach
        void addItem() {
            cart.add(350);
        }

        @Test
        void totalIsItsPrice() {
            assertEquals(350, cart.total());
        }

        @Test
        void removingItEmptiesTheCart() {
            cart.removeLast();
            assertTrue(cart.isEmpty());
        }
    }

    @Nested
    class Checkout {
        @Test
        void firstOrderIsNumberOne() {
            cart.add(280);
            assertEquals(1, cart.checkout());
        }
    }
}
