package io.flakescan.threads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Tasks handed to an executor by rewritten code (execute, submit, CompletableFuture.*Async with
 * an executor). A worker reaches its first scheduling point on its own time, so that it does not
 * race the schedule the scheduler must know it is coming before it decides again:
 *
 * - A thread the executor starts during the call (a pool's new worker, made by whatever
 *   ThreadFactory, behind whatever wrapper such as Executors.newSingleThreadExecutor's) is a
 *   registered start: the live threads are listed before the call, and a thread that is new
 *   when it reaches its first point while the caller still runs, or at the caller's next point,
 *   is registered as started at the call's site (Session.handedOff).
 * - A ThreadPoolExecutor that will give the task to an idle worker: deciding waits until a
 *   worker comes back from its idle wait (Session.expectArrival).
 */
final class HandOffs {
    private HandOffs() {}

    static void before(Object executor, String site) {
        ThreadState me = Sched.controlled(site);
        if (me == null) return;
        me.session.handingOff(me, site, live());
        if (!(executor instanceof ThreadPoolExecutor) || executor instanceof ScheduledThreadPoolExecutor) return;
        ThreadPoolExecutor pool = (ThreadPoolExecutor) executor;
        if (pool.isShutdown()) return;
        // Below the core size the pool starts a worker even when one is idle: that one is a new thread.
        boolean idleWorkerTakesIt = pool.getPoolSize() >= pool.getCorePoolSize() && pool.getActiveCount() < pool.getPoolSize();
        if (idleWorkerTakesIt) me.session.expectArrival();
    }

    /** `me` reached its next point after a hand-off: the threads started meanwhile are the executor's. Under the session's lock. */
    static void ended(Session s, ThreadState me) {
        Set<Thread> before = me.handOffBefore;
        me.handOffBefore = null;
        for (Thread t : liveList())
            if (!before.contains(t) && !s.byThread.containsKey(t) && !Watchdog.excluded(t) && t.isAlive()) register(s, t, me);
    }

    /** `t`, new since `by` began a hand-off, is its worker: started at its site, waited for like a started thread. */
    static void register(Session s, Thread t, ThreadState by) {
        ThreadState ts = s.register(t, ThreadState.Status.ARRIVING);
        ts.realStarted = true;
        ts.startedAt = by.handOffSite;
        ts.handedOff = true;
        if (s.expectedArrivals > 0) s.expectedArrivals--;
    }

    /** The live threads of the JVM, as an identity set. */
    static Set<Thread> live() {
        Set<Thread> out = Collections.newSetFromMap(new IdentityHashMap<>());
        out.addAll(liveList());
        return out;
    }

    static List<Thread> liveList() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] all = new Thread[root.activeCount() + 16];
        int n = root.enumerate(all, true);
        List<Thread> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(all[i]);
        return out;
    }
}
