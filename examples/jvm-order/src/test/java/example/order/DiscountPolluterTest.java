package example.order;

import static org.junit.Assert.assertEquals;

import example.order.app.PriceCache;
import org.junit.Test;

/** JUnit 4. cachesDiscountedPrice is the polluter: it leaves a cached price behind. */
public class DiscountPolluterTest {
    @Test
    public void cachesDiscountedPrice() {
        PriceCache.put("book", 80);
        assertEquals(80, PriceCache.priceOf("book"));
    }

    @Test
    public void discountIsPositive() {
        assertEquals(20, 100 - 80);
    }
}
