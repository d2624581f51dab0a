package android.os;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.After;
import org.junit.Test;

/** Dispatch order: by when, FIFO among equal times, at-front first, delayed messages wait. */
public class MessageQueueOrderTest {
    private Recorder rec = new Recorder("order-test");

    @After
    public void stop() throws InterruptedException {
        rec.open();
        rec.quit();
    }

    @Test
    public void messagesAreDispatchedInOrderOfTheirTime() throws Exception {
        long base = SystemClock.uptimeMillis() + 50;
        rec.handler.postAtTime(rec.item("t+30"), base + 30);
        rec.handler.postAtTime(rec.item("t+10"), base + 10);
        rec.handler.postAtTime(rec.item("t+20"), base + 20);
        rec.handler.postAtTime(rec.item("t+0"), base);
        rec.open();
        assertEquals(Arrays.asList("t+0", "t+10", "t+20", "t+30"), rec.awaitItems(4));
    }

    @Test
    public void equalTimesAreFifo() throws Exception {
        long when = SystemClock.uptimeMillis();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rec.handler.postAtTime(rec.item("m" + i), when);
            expected.add("m" + i);
        }
        rec.open();
        assertEquals(expected, rec.awaitItems(6));
    }

    @Test
    public void postKeepsSubmissionOrder() throws Exception {
        rec.handler.post(rec.item("a"));
        rec.handler.sendEmptyMessage(7);
        rec.handler.post(rec.item("b"));
        rec.open();
        assertEquals(Arrays.asList("a", "what7", "b"), rec.awaitItems(3));
    }

    @Test
    public void atFrontMessagesGoFirstNewestFirst() throws Exception {
        rec.handler.post(rec.item("normal1"));
        rec.handler.post(rec.item("normal2"));
        rec.handler.postAtFrontOfQueue(rec.item("front1"));
        rec.handler.sendMessageAtFrontOfQueue(rec.handler.obtainMessage(9));
        rec.open();
        assertEquals(Arrays.asList("what9", "front1", "normal1", "normal2"), rec.awaitItems(4));
    }

    @Test
    public void queuedListIsSortedByWhenThroughNext() {
        MessageQueue q = rec.handler.getLooper().getQueue();
        long base = SystemClock.uptimeMillis() + 10_000;
        rec.handler.postAtTime(rec.item("c"), base + 3);
        rec.handler.postAtTime(rec.item("a"), base + 1);
        rec.handler.postAtTime(rec.item("b"), base + 2);
        synchronized (q) {
            List<Long> whens = new ArrayList<>();
            for (Message m = q.mMessages; m != null; m = m.next) {
                whens.add(m.when);
            }
            // The gate (when 0, being dispatched) is no longer queued.
            assertEquals(Arrays.asList(base + 1, base + 2, base + 3), whens);
        }
        rec.handler.removeCallbacksAndMessages(null);
    }

    @Test
    public void delayedMessageWaitsUntilItsTime() throws Exception {
        long[] ranAt = new long[1];
        long when = SystemClock.uptimeMillis() + 150;
        rec.handler.postAtTime(() -> {
            ranAt[0] = SystemClock.uptimeMillis();
            rec.record("delayed");
        }, when);
        rec.handler.post(rec.item("now"));
        rec.open();
        assertEquals(Arrays.asList("now", "delayed"), rec.awaitItems(2));
        assertTrue("dispatched before its time", ranAt[0] >= when);
    }

    @Test
    public void negativeDelayCountsAsZero() throws Exception {
        rec.handler.post(rec.item("first"));
        rec.handler.postDelayed(rec.item("second"), -500);
        rec.open();
        assertEquals(Arrays.asList("first", "second"), rec.awaitItems(2));
    }

    @Test
    public void idleMeansNoDueMessage() throws Exception {
        rec.open();
        rec.sync(() -> { });
        MessageQueue q = rec.handler.getLooper().getQueue();
        rec.sync(() -> assertTrue("empty queue is idle", q.isIdle()));
        rec.sync(() -> {
            rec.handler.postDelayed(rec.item("later"), 60_000);
            assertTrue("only a future message: idle", q.isIdle());
            rec.handler.post(rec.item("due"));
            assertFalse("a due message: not idle", q.isIdle());
        });
        rec.handler.removeCallbacksAndMessages(null);
    }

    @Test
    public void loopingThreadIsPollingWhenNothingIsDue() throws Exception {
        rec.open();
        rec.sync(() -> { });
        MessageQueue q = rec.handler.getLooper().getQueue();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!q.isPolling() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(q.isPolling());
        assertEquals(Thread.State.WAITING, rec.thread.getState());
    }

    @Test
    public void enqueueRequiresTargetAndFreshMessage() {
        MessageQueue q = rec.handler.getLooper().getQueue();
        Message noTarget = Message.obtain();
        try {
            q.enqueueMessage(noTarget, 0);
            throw new AssertionError("accepted a message without target");
        } catch (IllegalArgumentException expected) {
            assertEquals("Message must have a target.", expected.getMessage());
        }
        Message m = rec.handler.obtainMessage(1);
        assertTrue(rec.handler.sendMessageDelayed(m, 60_000));
        try {
            rec.handler.sendMessage(m);
            throw new AssertionError("enqueued a message twice");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage().contains("already in use"));
        }
        rec.handler.removeMessages(1);
        assertNull(q.mMessages);
    }
}
