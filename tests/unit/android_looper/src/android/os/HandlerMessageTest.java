package android.os;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Test;

/** Handler dispatch, removal, Message pool, Looper and HandlerThread rules, quitting. */
public class HandlerMessageTest {
    private final Recorder rec = new Recorder("handler-test");

    @After
    public void stop() throws InterruptedException {
        rec.open();
        rec.quit();
    }

    @Test
    public void removeCallbacksDropsOnlyThatRunnable() throws Exception {
        Runnable gone = rec.item("gone");
        rec.handler.post(gone);
        rec.handler.post(rec.item("kept"));
        rec.handler.postDelayed(gone, 5);
        assertTrue(rec.handler.hasCallbacks(gone));
        rec.handler.removeCallbacks(gone);
        assertFalse(rec.handler.hasCallbacks(gone));
        rec.handler.post(rec.item("end"));
        rec.open();
        assertEquals(Arrays.asList("kept", "end"), rec.awaitItems(2));
        rec.sync(() -> { });
        assertEquals(Arrays.asList("kept", "end"), rec.order());
    }

    @Test
    public void removeMessagesByWhatAndObject() throws Exception {
        Object token = new Object();
        rec.handler.sendMessage(rec.handler.obtainMessage(1, token));
        rec.handler.sendMessage(rec.handler.obtainMessage(1, "other"));
        rec.handler.sendEmptyMessage(2);
        rec.handler.sendEmptyMessageDelayed(3, 1);
        assertTrue(rec.handler.hasMessages(1, token));
        rec.handler.removeMessages(1, token);
        assertFalse(rec.handler.hasMessages(1, token));
        assertTrue(rec.handler.hasMessages(1));
        rec.handler.removeMessages(3);
        assertFalse(rec.handler.hasMessages(3));
        rec.handler.post(rec.item("end"));
        rec.open();
        assertEquals(Arrays.asList("what1", "what2", "end"), rec.awaitItems(3));
    }

    /** A posted Runnable is a message with what 0: removeMessages(0) drops it too. */
    @Test
    public void removeMessagesZeroAlsoDropsPostedRunnables() throws Exception {
        Runnable posted = rec.item("posted");
        rec.handler.post(posted);
        rec.handler.sendEmptyMessage(0);
        rec.handler.sendEmptyMessage(5);
        assertTrue(rec.handler.hasMessages(0));
        rec.handler.removeMessages(0);
        assertFalse(rec.handler.hasMessages(0));
        assertFalse(rec.handler.hasCallbacks(posted));
        rec.open();
        assertEquals(Arrays.asList("what5"), rec.awaitItems(1));
    }

    @Test
    public void removeCallbacksAndMessagesWithToken() throws Exception {
        Object token = new Object();
        long now = SystemClock.uptimeMillis();
        rec.handler.postAtTime(rec.item("tokened"), token, now);
        rec.handler.postDelayed(rec.item("tokened-later"), token, 1);
        rec.handler.post(rec.item("plain"));
        rec.handler.removeCallbacksAndMessages(token);
        rec.handler.post(rec.item("end"));
        rec.open();
        assertEquals(Arrays.asList("plain", "end"), rec.awaitItems(2));
    }

    @Test
    public void dispatchPrefersCallbackThenHandlerCallbackThenHandleMessage() throws Exception {
        List<String> seen = new ArrayList<>();
        Handler h = new Handler(rec.handler.getLooper(), msg -> {
            seen.add("callback" + msg.what);
            return msg.what == 1;  // consumes 1, lets 2 through
        }) {
            @Override
            public void handleMessage(Message msg) {
                seen.add("handleMessage" + msg.what);
            }
        };
        h.sendEmptyMessage(1);
        h.sendEmptyMessage(2);
        h.post(() -> seen.add("runnable"));
        rec.open();
        rec.sync(() -> { });
        assertEquals(Arrays.asList("callback1", "callback2", "handleMessage2", "runnable"), seen);
    }

    @Test
    public void obtainReusesRecycledMessagesCleared() {
        Message m = Message.obtain(rec.handler, 5, 6, 7, "obj");
        assertEquals(5, m.what);
        assertEquals(6, m.arg1);
        assertEquals(7, m.arg2);
        assertEquals("obj", m.obj);
        assertSame(rec.handler, m.getTarget());
        m.recycle();
        Message again = Message.obtain();
        assertSame("pool gives back the recycled message", m, again);
        assertEquals(0, again.what);
        assertEquals(0, again.arg1);
        assertNull(again.obj);
        assertNull(again.getTarget());
        assertNull(again.getCallback());
        Message copy = Message.obtain(Message.obtain(rec.handler, 3, "x"));
        assertEquals(3, copy.what);
        assertEquals("x", copy.obj);
    }

    @Test
    public void recyclingAQueuedMessageIsRefused() {
        Message m = rec.handler.obtainMessage(4);
        rec.handler.sendMessageDelayed(m, 60_000);
        try {
            m.recycle();
            throw new AssertionError("recycled a queued message");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage().contains("still in use"));
        }
        rec.handler.removeMessages(4);
    }

    @Test
    public void messageWhenIsTheDeliveryTime() {
        Message m = rec.handler.obtainMessage(8);
        long at = SystemClock.uptimeMillis() + 60_000;
        rec.handler.sendMessageAtTime(m, at);
        assertEquals(at, m.getWhen());
        rec.handler.removeMessages(8);
    }

    @Test
    public void sendToTargetUsesTheTarget() throws Exception {
        rec.handler.obtainMessage(11).sendToTarget();
        rec.open();
        assertEquals(Arrays.asList("what11"), rec.awaitItems(1));
    }

    @Test
    @SuppressWarnings("deprecation")  // Handler() without a looper is the point of the test
    public void looperRules() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                if (Looper.myLooper() != null) {
                    throw new AssertionError("plain thread has a looper");
                }
                try {
                    new Handler();
                    throw new AssertionError("Handler() without looper");
                } catch (RuntimeException expected) {
                    assertTrue(expected.getMessage().contains("Looper.prepare()"));
                }
                Looper.prepare();
                assertNotNull(Looper.myLooper());
                assertSame(Looper.myLooper().getQueue(), Looper.myQueue());
                assertSame(Thread.currentThread(), Looper.myLooper().getThread());
                assertTrue(Looper.myLooper().isCurrentThread());
                try {
                    Looper.prepare();
                    throw new AssertionError("prepared twice");
                } catch (RuntimeException expected) {
                    assertEquals("Only one Looper may be created per thread",
                            expected.getMessage());
                }
                Handler h = new Handler();
                h.post(() -> Looper.myLooper().quit());
                Looper.loop();  // returns after quit
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive());
        if (thrown.get() != null) {
            throw new AssertionError(thrown.get());
        }
    }

    @Test
    public void quitDropsPendingAndRefusesNewMessages() throws Exception {
        rec.handler.postDelayed(rec.item("never"), 60_000);
        rec.handler.post(rec.item("dropped-too"));
        rec.thread.quit();
        assertFalse("send after quit", rec.handler.post(rec.item("late")));
        rec.open();
        rec.thread.join(10_000);
        assertFalse(rec.thread.isAlive());
        assertEquals(new ArrayList<String>(), rec.order());
    }

    @Test
    public void quitSafelyDeliversDueMessagesOnly() throws Exception {
        rec.handler.post(rec.item("due"));
        rec.handler.postDelayed(rec.item("future"), 60_000);
        rec.thread.quitSafely();
        rec.open();
        rec.thread.join(10_000);
        assertFalse(rec.thread.isAlive());
        assertEquals(Arrays.asList("due"), rec.order());
    }

    @Test
    public void handlerThreadRunsItsLooperAndEnds() throws Exception {
        CountDownLatch prepared = new CountDownLatch(1);
        HandlerThread ht = new HandlerThread("worker") {
            @Override
            protected void onLooperPrepared() {
                prepared.countDown();
            }
        };
        assertNull("looper before start", ht.getLooper());
        ht.start();
        Looper looper = ht.getLooper();
        assertNotNull(looper);
        assertTrue(prepared.await(10, TimeUnit.SECONDS));
        assertSame(ht, looper.getThread());
        AtomicReference<String> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        ht.getThreadHandler().post(() -> {
            ranOn.set(Thread.currentThread().getName());
            ran.countDown();
        });
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertEquals("worker", ranOn.get());
        assertTrue(ht.quit());
        ht.join(10_000);
        assertFalse(ht.isAlive());
    }
}
