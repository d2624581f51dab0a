package example.order.app;

import java.util.HashMap;
import java.util.Map;

/** A process-wide cache: the shared state that the cache tests pollute and clean. */
public final class PriceCache {
    private static final Map<String, Integer> PRICES = new HashMap<>();

    private PriceCache() {}

    public static void put(String item, int price) { PRICES.put(item, price); }

    public static Integer get(String item) { return PRICES.get(item); }

    public static int size() { return PRICES.size(); }

    public static void clear() { PRICES.clear(); }

    /** The price of an item, or the list price when nothing was cached. */
    public static int priceOf(String item) {
        Integer cached = PRICES.get(item);
        return cached != null ? cached : 100;
    }
}
