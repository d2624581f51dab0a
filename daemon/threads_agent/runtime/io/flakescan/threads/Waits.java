package io.flakescan.threads;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition outside the model (called through Sched): CountDownLatch.await,
 * FutureTask.get, CompletableFuture.get/join, ExecutorService.awaitTermination. Each is a "wait"
 * step on the latch, future or executor, enabled once the condition holds (or its timeout passed
 * while nothing else could run), followed by the real call, which then returns at once.
 */
final class Waits {
    private Waits() {}

    /** After the model's wait the real await still runs (at once, the count being zero), so a
     *  subclass's override of it runs too. */
    static void await(CountDownLatch latch, String site) throws InterruptedException {
        awaitUntil(latch, () -> latch.getCount() == 0, -1, site);
        latch.await();
    }

    static boolean await(CountDownLatch latch, long time, TimeUnit unit, String site) throws InterruptedException {
        if (!awaitUntil(latch, () -> latch.getCount() == 0, Math.max(0, unit.toMillis(time)), site) || latch.getCount() == 0)
            return latch.await(time, unit);
        return false;  // timed out in the model
    }

    /**
     * ExecutorService.awaitTermination on the JDK's pools (and their wrappers): a "wait" step on
     * the executor, enabled once it has terminated (its workers ended: controlled ones end under
     * control), timing out on the model's clock; then the real call, which returns at once when it
     * has. A ForkJoinPool's is a blocking call (its workers are not controlled); a project's or a
     * library's executor is rewritten code whose own steps do.
     */
    static boolean awaitTermination(java.util.concurrent.ExecutorService e, long time, TimeUnit unit, String site)
            throws InterruptedException {
        if (e instanceof java.util.concurrent.ForkJoinPool) {
            Sched.blocking("java.util.concurrent.ForkJoinPool.awaitTermination", site);
        } else if (jdkClass(e)) {
            if (awaitUntil(e, e::isTerminated, Math.max(0, unit.toMillis(time)), site) && !e.isTerminated()) return false;  // timed out
        }
        return e.awaitTermination(time, unit);
    }

    /**
     * A FutureTask's get, and a CompletableFuture's outside a ForkJoin worker (which would help
     * run other tasks while it waits), is a modelled wait; another JDK future's a blocking call;
     * a future of the project or a library is rewritten code itself, whose own synchronisation
     * (park, monitors, latches) is scheduled, so its get runs as it is.
     */
    static Object get(Future<?> f, String site) throws InterruptedException, ExecutionException {
        if (modelledWait(f)) {
            if (!awaitUntil(f, f::isDone, -1, site)) return f.get();
        } else if (jdkClass(f)) {
            Sched.blocking(f.getClass().getName() + ".get", site);
        }
        return f.get();
    }

    static Object get(Future<?> f, long time, TimeUnit unit, String site)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (!modelledWait(f)) {
            if (jdkClass(f)) Sched.blocking(f.getClass().getName() + ".get", site);
            return f.get(time, unit);
        }
        if (!awaitUntil(f, f::isDone, Math.max(0, unit.toMillis(time)), site)) return f.get(time, unit);
        if (!f.isDone()) throw new TimeoutException();
        return f.get();
    }

    static Object joinFuture(CompletableFuture<?> f, String site) {
        if (modelledWait(f)) {
            try {
                awaitUntil(f, f::isDone, -1, site);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();  // join does not throw it; the flag stays set
            }
        } else {
            Sched.blocking("java.util.concurrent.CompletableFuture.join", site);
        }
        return f.join();
    }

    private static boolean modelledWait(Future<?> f) {
        return f instanceof FutureTask || f instanceof CompletableFuture && !(Thread.currentThread() instanceof ForkJoinWorkerThread);
    }

    private static boolean jdkClass(Object o) {
        ClassLoader loader = o.getClass().getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /**
     * A "wait" step on `target` that is enabled once `until` holds (or the timeout passes when
     * nothing else can run). False when the thread is not under control: wait for real.
     */
    private static boolean awaitUntil(Object target, BooleanSupplier until, long ms, String site) throws InterruptedException {
        ThreadState me = Sched.controlled(site);
        if (me == null) return false;
        if (Thread.interrupted()) throw new InterruptedException();
        Op op = new Op(Op.Kind.WAIT, target, null, site).timed(ms).interruptible();
        op.until = until;
        Op done = me.session.pass(me, op);
        if (done == null) return false;
        if (done.interrupted) throw new InterruptedException();
        return true;
    }
}
