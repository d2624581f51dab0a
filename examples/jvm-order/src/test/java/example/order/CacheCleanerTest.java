package example.order;

import static org.junit.Assert.assertEquals;

import example.order.app.PriceCache;
import org.junit.Test;

/** JUnit 4. clearsCache is a cleaner for CachedPriceTest.listPriceWithoutDiscount. */
public class CacheCleanerTest {
    @Test
    public void clearsCache() {
        PriceCache.clear();
        assertEquals(0, PriceCache.size());
    }
}
