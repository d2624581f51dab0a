package example.layouts.app;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart of prices in cents. */
public final class Cart {
    private final List<Integer> prices = new ArrayList<>();

    public void add(int cents) { prices.add(cents); }

    public void removeLast() { prices.remove(prices.size() - 1); }

    public boolean isEmpty() { return prices.isEmpty(); }

    public int total() { return prices.stream().mapToInt(Integer::intValue).sum(); }

    /** Checks the cart out under the next order number. */
    public int checkout() { return OrderNumbers.next(); }
}
