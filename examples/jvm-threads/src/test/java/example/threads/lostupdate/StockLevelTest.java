package example.threads.lostupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** JUnit 5. Lost update: two pickers take units from one stock level. */
class StockLevelTest {
    private static final int PICKS = 20;

    @Test
    void twoPickersTakeStock() throws InterruptedException {
        StockLevel stock = new StockLevel(100);
        pickInTwoThreads(() -> stock.take(2));
        assertEquals(100 - 2 * 2 * PICKS, stock.available());
    }

    @Test
    void twoPickersTakeStockSynchronized() throws InterruptedException {
        SynchronizedStockLevel stock = new SynchronizedStockLevel(100);
        pickInTwoThreads(() -> stock.take(2));
        assertEquals(100 - 2 * 2 * PICKS, stock.available());
    }

    private static void pickInTwoThreads(Runnable pick) throws InterruptedException {
        Runnable picker = () -> {
            for (int i = 0; i < PICKS; i++) {
                pick.run();
            }
        };
        Thread first = new Thread(picker, "picker-1");
        Thread second = new Thread(picker, "picker-2");
        first.start();
        second.start();
        first.join();
        second.join();
    }
}
