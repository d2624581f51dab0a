package androidx.test.espresso;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import android.os.AsyncTask;
import android.os.Handler;
import android.os.Looper;
import androidx.test.platform.app.InstrumentationRegistry;
import io.flakescan.fixture.MainLooperRule;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

/**
 * How Espresso.onIdle treats idling resources over time (IdlingPolicies): a busy resource is
 * asked again only after its callback or at the warning interval; a resource idle without a
 * callback is a consistency error; timeouts end in IdlingResourceTimeoutException or
 * AppNotIdleException. Short policies keep the tests fast; every test restores the defaults.
 */
public class IdlingPolicyTest {
    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    @After
    public void restorePolicies() {
        IdlingPolicies.resetForTests();
    }

    @Test
    public void defaultsAreEspressos() {
        assertEquals(60_000, IdlingPolicies.getMasterIdlingPolicy().toMillis());
        assertEquals(26_000, IdlingPolicies.getDynamicIdlingResourceErrorPolicy().toMillis());
        assertEquals(5_000, IdlingPolicies.getDynamicIdlingResourceWarningPolicy().toMillis());
        IdlingPolicies.setIdlingResourceTimeout(3, TimeUnit.SECONDS);
        assertEquals(3, IdlingPolicies.getDynamicIdlingResourceErrorPolicy().getIdleTimeout());
        assertSame(TimeUnit.SECONDS,
                IdlingPolicies.getDynamicIdlingResourceErrorPolicy().getIdleTimeoutUnit());
    }

    @Test(timeout = 10_000)
    public void busyResourceIsAskedAgainOnlyAtTheWarningInterval() {
        IdlingPolicies.setWarningTimeoutForTests(400, TimeUnit.MILLISECONDS);
        Resource r = new Resource("asked-late", true);
        IdlingRegistry.getInstance().register(r);
        long start = System.nanoTime();
        new Thread(() -> {
            // Idle only once Espresso has asked and found it busy (a fixed 20 ms let a slow
            // first ask find it idle already and return at once).
            while (r.asked.get() == 0) sleep(1);
            r.busy = false;  // its callback comes only from isIdleNow()
        }, "worker").start();
        Espresso.onIdle();
        long took = (System.nanoTime() - start) / 1_000_000;
        assertTrue("asked again before the warning interval: " + took + " ms", took >= 400);
        assertTrue("isIdleNow calls: " + r.asked.get(), r.asked.get() <= 3);
    }

    @Test(timeout = 10_000)
    public void callbackEndsTheWaitAtOnce() {
        IdlingPolicies.setWarningTimeoutForTests(60, TimeUnit.SECONDS);
        Resource r = new Resource("calls-back", false);
        IdlingRegistry.getInstance().register(r);
        new Thread(() -> {
            sleep(50);
            r.busy = false;
            r.callback.onTransitionToIdle();
        }, "worker").start();
        Espresso.onIdle();
        assertFalse(r.busy);
    }

    @Test(timeout = 10_000)
    public void idleWithoutCallbackIsAConsistencyError() {
        IdlingPolicies.setWarningTimeoutForTests(200, TimeUnit.MILLISECONDS);
        Resource r = new Resource("never-calls-back", false);
        IdlingRegistry.getInstance().register(r);
        new Thread(() -> {
            // Idle only once Espresso has found it busy: a first ask that came late would have
            // found it idle and returned with no error to see.
            while (r.asked.get() == 0) sleep(1);
            r.busy = false;
        }, "worker").start();
        Throwable cause = failureOf(Espresso::onIdle);
        assertTrue(cause.toString(), cause instanceof IllegalStateException);
        assertTrue(cause.getMessage().contains("never-calls-back"));
    }

    @Test(timeout = 10_000)
    public void resourceBusyPastTheErrorPolicyTimesOut() {
        IdlingPolicies.setIdlingResourceTimeout(300, TimeUnit.MILLISECONDS);
        Resource r = new Resource("stuck", false);
        IdlingRegistry.getInstance().register(r);
        long start = System.nanoTime();
        Throwable cause = failureOf(Espresso::onIdle);
        long took = (System.nanoTime() - start) / 1_000_000;
        assertTrue(cause.toString(), cause instanceof IdlingResourceTimeoutException);
        assertTrue(cause.getMessage().contains("stuck"));
        // Not earlier than the policy; a later end is the machine's load (the master policy's
        // 60 s would have ended in AppNotIdleException, which the type check rules out).
        assertTrue("timed out after " + took + " ms", took >= 300);
    }

    @Test(timeout = 10_000)
    public void mainQueueNeverIdleIsAppNotIdle() {
        IdlingPolicies.setMasterPolicyTimeout(300, TimeUnit.MILLISECONDS);
        Handler h = new Handler(Looper.getMainLooper());
        Runnable[] again = new Runnable[1];
        again[0] = () -> h.post(again[0]);  // always one due message
        h.post(again[0]);
        try {
            Espresso.onIdle();
            throw new AssertionError("onIdle returned while the main queue never went idle");
        } catch (AppNotIdleException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("main queue"));
        }
    }

    @Test(timeout = 10_000)
    public void asyncTaskThatNeverEndsIsAppNotIdle() {
        IdlingPolicies.setMasterPolicyTimeout(300, TimeUnit.MILLISECONDS);
        CountDownLatch release = new CountDownLatch(1);
        AsyncTask<Void, Void, Void> task = new AsyncTask<Void, Void, Void>() {
            @Override
            protected Void doInBackground(Void... params) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }
        };
        InstrumentationRegistry.getInstrumentation().runOnMainSync(() -> task.execute());
        try {
            Espresso.onIdle();
            throw new AssertionError("onIdle returned while an AsyncTask was running");
        } catch (AppNotIdleException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("AsyncTask"));
        } finally {
            release.countDown();
        }
        Espresso.onIdle();  // and once it ends, the app is idle again
    }

    @Test(timeout = 10_000)
    public void secondResourceWithTheSameNameIsIgnored() {
        Resource first = new Resource("same-name", false);
        first.busy = false;
        Resource second = new Resource("same-name", false);  // busy forever
        IdlingRegistry.getInstance().register(first, second);
        Espresso.onIdle();
        assertEquals(null, second.callback);
    }

    @Test(timeout = 10_000)
    public void reRegisteredResourceGetsItsCallbackAgain() {
        Resource r = new Resource("again", false);
        r.busy = false;
        IdlingRegistry.getInstance().register(r);
        Espresso.onIdle();
        IdlingResource.ResourceCallback firstCallback = r.callback;
        IdlingRegistry.getInstance().unregister(r);
        Espresso.onIdle();
        IdlingRegistry.getInstance().register(r);
        Espresso.onIdle();
        assertEquals(2, r.registrations.get());
        assertFalse(firstCallback == r.callback);
    }

    @Test(timeout = 10_000)
    public void failingActionIsWrappedAsByEspresso() {
        RuntimeException boom = new IllegalArgumentException("boom");
        Throwable cause = failureOf(() -> Espresso.onIdle(() -> {
            throw boom;
        }));
        assertSame(boom, cause);
    }

    // The failure onIdle reports, unwrapped as Espresso wraps it (RuntimeException, then
    // ExecutionException).
    private static Throwable failureOf(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            assertTrue("wrapped in ExecutionException: " + e,
                    e.getCause() instanceof ExecutionException);
            return e.getCause().getCause();
        }
        throw new AssertionError("onIdle did not fail");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Busy while {@link #busy}; counts isIdleNow() calls; may call back from isIdleNow(). */
    private static final class Resource implements IdlingResource {
        private final String name;
        private final boolean callsBackFromIsIdleNow;
        volatile boolean busy = true;
        volatile ResourceCallback callback;
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger registrations = new AtomicInteger();

        Resource(String name, boolean callsBackFromIsIdleNow) {
            this.name = name;
            this.callsBackFromIsIdleNow = callsBackFromIsIdleNow;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isIdleNow() {
            boolean idle = !busy;
            asked.incrementAndGet();  // after the read: a thread waiting for the first ask knows its answer was taken
            if (idle && callsBackFromIsIdleNow && callback != null) {
                callback.onTransitionToIdle();
            }
            return idle;
        }

        @Override
        public void registerIdleTransitionCallback(ResourceCallback cb) {
            registrations.incrementAndGet();
            callback = cb;
        }
    }
}
