package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Invoice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JUnit 5. HashMap.values() iterated in main code (Invoice.lineAmounts). */
class InvoiceTest {
    private static Invoice order() {
        Invoice invoice = new Invoice();
        invoice.add("widget", 1200);
        invoice.add("gadget", 800);
        invoice.add("gizmo", 450);
        invoice.add("widget", 300);
        return invoice;
    }

    /**
     * Implementation-dependent: expects the lines in the order the items were added, which
     * the HashMap gives only because of how these names hash. Fixed by a LinkedHashMap in
     * Invoice (comparing the amounts as a multiset also passes); sorting does not.
     */
    @Test
    void listsLineAmountsInOrderAdded() {
        assertEquals(List.of(1500L, 800L, 450L), order().lineAmounts());
    }

    /** Twin: the same amounts, sorted before comparing, and the total. */
    @Test
    void sumsLineAmounts() {
        Invoice invoice = order();
        List<Long> amounts = new ArrayList<>(invoice.lineAmounts());
        Collections.sort(amounts);
        assertEquals(List.of(450L, 800L, 1500L), amounts);
        assertEquals(2750L, invoice.totalCents());
    }
}
