package example.order;

import static org.junit.Assert.assertEquals;

import example.order.app.PriceCache;
import org.junit.Test;

/** JUnit 4. listPriceWithoutDiscount is a victim: it passes alone and fails after
 *  DiscountPolluterTest.cachesDiscountedPrice, unless CacheCleanerTest.clearsCache ran in
 *  between. */
public class CachedPriceTest {
    @Test
    public void listPriceWithoutDiscount() {
        assertEquals(100, PriceCache.priceOf("book"));
    }

    @Test
    public void otherItemsUseListPrice() {
        assertEquals(100, PriceCache.priceOf("pen"));
    }
}
