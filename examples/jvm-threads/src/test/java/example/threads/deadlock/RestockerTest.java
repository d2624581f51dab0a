package example.threads.deadlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * JUnit 5. Lock-order deadlock with ReentrantLocks: items moved between two shelves in both
 * directions at once. Daemon threads joined with a timeout: a deadlock fails, never hangs.
 */
class RestockerTest {
    private static final int MOVES = 10;

    @Test
    void opposingMovesComplete() throws InterruptedException {
        Shelf top = new Shelf(1, 50);
        Shelf bottom = new Shelf(2, 50);
        Restocker restocker = new Restocker();
        boolean finished = inOpposingThreads(() -> restocker.move(top, bottom, 3), () -> restocker.move(bottom, top, 1));
        assertTrue(finished, "the two restocking threads did not finish (deadlocked)");
        assertEquals(30, top.items());
        assertEquals(70, bottom.items());
    }

    @Test
    void opposingMovesCompleteInLockOrder() throws InterruptedException {
        Shelf top = new Shelf(1, 50);
        Shelf bottom = new Shelf(2, 50);
        OrderedRestocker restocker = new OrderedRestocker();
        boolean finished = inOpposingThreads(() -> restocker.move(top, bottom, 3), () -> restocker.move(bottom, top, 1));
        assertTrue(finished, "the two restocking threads did not finish (deadlocked)");
        assertEquals(30, top.items());
        assertEquals(70, bottom.items());
    }

    private static boolean inOpposingThreads(Runnable one, Runnable other) throws InterruptedException {
        Thread a = new Thread(() -> repeat(one), "restocker-a");
        Thread b = new Thread(() -> repeat(other), "restocker-b");
        a.setDaemon(true);
        b.setDaemon(true);
        a.start();
        b.start();
        a.join(2000);
        b.join(2000);
        return !a.isAlive() && !b.isAlive();
    }

    private static void repeat(Runnable move) {
        for (int i = 0; i < MOVES; i++) {
            move.run();
        }
    }
}
