package example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.order.app.Ledger;
import org.junit.jupiter.api.Test;

/** JUnit 5. recordsOneEntry is a NIO test: it passes once and fails when run a second time
 *  in the same JVM, because the ledger keeps its first entry. opensOnce is NIO too. */
class LedgerNioTest {
    @Test
    void recordsOneEntry() {
        Ledger.record("coffee");
        assertEquals(1, Ledger.entries().size());
    }

    @Test
    void opensOnce() {
        assertEquals(1, Ledger.open());
    }
}
