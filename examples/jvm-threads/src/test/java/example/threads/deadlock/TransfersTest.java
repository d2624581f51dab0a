package example.threads.deadlock;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * JUnit 4. Lock-order deadlock: transfers between two accounts in both directions at once. The
 * threads are daemons and joined with a timeout, so a deadlocked pair fails the test instead of
 * hanging the JVM.
 */
public class TransfersTest {
    private static final int TRANSFERS = 10;

    @Test
    public void opposingTransfersComplete() throws InterruptedException {
        Account alice = new Account(1, 1000);
        Account bob = new Account(2, 1000);
        Transfers transfers = new Transfers();
        boolean finished = inOpposingThreads(() -> transfers.transfer(alice, bob, 30), () -> transfers.transfer(bob, alice, 10));
        assertTrue("the two transfer threads did not finish (deadlocked)", finished);
        assertEquals(800, alice.balance());
        assertEquals(1200, bob.balance());
    }

    @Test
    public void opposingTransfersCompleteInLockOrder() throws InterruptedException {
        Account alice = new Account(1, 1000);
        Account bob = new Account(2, 1000);
        OrderedTransfers transfers = new OrderedTransfers();
        boolean finished = inOpposingThreads(() -> transfers.transfer(alice, bob, 30), () -> transfers.transfer(bob, alice, 10));
        assertTrue("the two transfer threads did not finish (deadlocked)", finished);
        assertEquals(800, alice.balance());
        assertEquals(1200, bob.balance());
    }

    private static boolean inOpposingThreads(Runnable one, Runnable other) throws InterruptedException {
        Thread a = new Thread(() -> repeat(one), "teller-a");
        Thread b = new Thread(() -> repeat(other), "teller-b");
        a.setDaemon(true);
        b.setDaemon(true);
        a.start();
        b.start();
        a.join(2000);
        b.join(2000);
        return !a.isAlive() && !b.isAlive();
    }

    private static void repeat(Runnable transfer) {
        for (int i = 0; i < TRANSFERS; i++) {
            transfer.run();
        }
    }
}
