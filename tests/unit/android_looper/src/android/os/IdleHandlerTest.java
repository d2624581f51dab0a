package android.os;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Test;

/** IdleHandlers run when no message is due, once per idle period; false removes them. */
public class IdleHandlerTest {
    private final Recorder rec = new Recorder("idle-test");

    @After
    public void stop() throws InterruptedException {
        rec.open();
        rec.quit();
    }

    @Test
    public void idleHandlerRunsAfterDueMessagesOnly() throws Exception {
        MessageQueue q = rec.handler.getLooper().getQueue();
        q.addIdleHandler(() -> {
            rec.record("idle");
            return false;
        });
        rec.handler.post(rec.item("a"));
        rec.handler.post(rec.item("b"));
        rec.open();
        assertEquals(Arrays.asList("a", "b", "idle"), rec.awaitItems(3));
    }

    @Test
    public void idleHandlerRunsWhileOnlyFutureMessagesWait() throws Exception {
        MessageQueue q = rec.handler.getLooper().getQueue();
        rec.handler.postDelayed(rec.item("future"), 60_000);
        q.addIdleHandler(() -> {
            rec.record("idle");
            return false;
        });
        rec.open();
        assertEquals(Arrays.asList("idle"), rec.awaitItems(1));
        rec.handler.removeCallbacksAndMessages(null);
    }

    @Test
    public void keptHandlerRunsOncePerIdlePeriodAndRemovedOneNeverAgain() throws Exception {
        MessageQueue q = rec.handler.getLooper().getQueue();
        List<String> calls = new ArrayList<>();  // touched on the looper thread only
        MessageQueue.IdleHandler keep = () -> {
            calls.add("keep");
            return true;
        };
        MessageQueue.IdleHandler once = () -> {
            calls.add("once");
            return false;
        };
        q.addIdleHandler(keep);
        q.addIdleHandler(once);
        rec.open();
        // Each sync message ends one idle period; the next idle period runs `keep` again. The
        // test waits for each idle period (the looper blocked again, its idle handlers done)
        // before it posts the next message, which could otherwise come before the looper
        // looked at its queue and leave it no idle period at all.
        awaitPolling(q);
        rec.sync(() -> { });
        awaitPolling(q);
        rec.sync(() -> { });
        awaitPolling(q);
        rec.sync(() -> calls.add("mark"));
        q.removeIdleHandler(keep);
        rec.sync(() -> { });
        List<String> seen = new ArrayList<>();
        rec.sync(() -> seen.addAll(calls));
        assertEquals("once", seen.get(1));
        assertEquals(1, seen.stream().filter("once"::equals).count());
        int mark = seen.indexOf("mark");
        assertTrue("keep ran again after later messages: " + seen,
                seen.subList(2, mark + 1).contains("keep"));
        assertEquals("keep no longer runs once removed: " + seen, "mark",
                seen.get(seen.size() - 1 - trailingKeeps(seen)));
    }

    private static void awaitPolling(MessageQueue q) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!q.isPolling() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue("the looper did not go idle", q.isPolling());
    }

    // `keep` may run once more after "mark" (the idle period before its removal), never more.
    private static int trailingKeeps(List<String> seen) {
        int n = 0;
        for (int i = seen.size() - 1; i >= 0 && seen.get(i).equals("keep"); i--) {
            n++;
        }
        assertTrue("keep ran after its removal: " + seen, n <= 1);
        return n;
    }

    @Test
    public void idleHandlersRunOnceWhileTheQueueStaysIdle() throws Exception {
        MessageQueue q = rec.handler.getLooper().getQueue();
        AtomicInteger runs = new AtomicInteger();
        rec.handler.postDelayed(rec.item("far-future"), 60_000);
        q.addIdleHandler(() -> {
            runs.incrementAndGet();
            return true;
        });
        rec.open();
        awaitPolling(q);
        assertEquals(1, runs.get());
        rec.handler.removeCallbacksAndMessages(null);
    }

    /**
     * Waits for the event, not for time: the handler signals that it ran before it throws;
     * then, after a message, the looper must reach its poll again (an idle period, in which a
     * kept handler would have run a second time) before the count is read. Two syncs in a row
     * were not enough: the test thread could post the next one before the looper went idle.
     */
    @Test
    public void throwingIdleHandlerIsRemovedAndLoopGoesOn() throws Exception {
        MessageQueue q = rec.handler.getLooper().getQueue();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(1);
        q.addIdleHandler(() -> {
            runs.incrementAndGet();
            ran.countDown();
            throw new IllegalStateException("idle handler failure (expected by the test)");
        });
        rec.open();
        assertTrue("the idle handler did not run", ran.await(10, TimeUnit.SECONDS));
        rec.sync(() -> { });  // the loop went on after the throw
        awaitPolling(q);
        rec.sync(() -> assertEquals(1, runs.get()));
    }
}
