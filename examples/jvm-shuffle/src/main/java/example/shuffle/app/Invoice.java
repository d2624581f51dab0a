package example.shuffle.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An invoice: one line per item, amounts in cents; adding an item again adds to its line. */
public final class Invoice {
    private final Map<String, Long> centsByItem = new HashMap<>();

    public void add(String item, long cents) {
        centsByItem.merge(item, cents, Long::sum);
    }

    public long totalCents() {
        long total = 0;
        for (long cents : centsByItem.values()) {
            total += cents;
        }
        return total;
    }

    /**
     * The line amounts as printed on the invoice, meant to be in the order the items were
     * added; a HashMap does not remember that order.
     */
    public List<Long> lineAmounts() {
        List<Long> amounts = new ArrayList<>();
        for (long cents : centsByItem.values()) { // shuffle-site
            amounts.add(cents);
        }
        return amounts;
    }
}
