package io.flakescan.threads;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * What rewritten code calls (the agent's rewriter, daemon/threads_agent/agent/, emits these
 * calls; every method takes the call's source site last). Outside a session, or on a thread the
 * session does not control, each does exactly the real operation. Under control each is a
 * scheduling point: the thread announces the operation and waits until the scheduler chooses
 * it (Session.pass). Monitors, wait and notify are in Monitors, LockSupport and locks in
 * ParkAndLocks; this class is the one entry point the rewriter knows.
 */
public final class Sched {
    private Sched() {}

    /** The calling thread's state when the active session controls it (registering it if new), else null. */
    static ThreadState controlled(String site) {
        Session s = Session.active;
        if (s == null || !s.controlling) return null;
        PerThread pt = PerThread.get();
        ThreadState ts = pt == null ? null : pt.state;
        if (ts != null && ts.session == s) {
            ThreadState.Status st = ts.status;
            return st == ThreadState.Status.RELEASED || st == ThreadState.Status.ABANDONED || st == ThreadState.Status.ENDED ? null : ts;
        }
        ts = s.adopt(Thread.currentThread(), site);
        if (ts == null) return null;
        if (pt == null) {
            pt = new PerThread();
            PerThread.set(pt);
        }
        pt.state = ts;
        return ts;
    }

    /** Called by Control.begin for thread 0. */
    static void bind(ThreadState t0) {
        PerThread pt = PerThread.get();
        if (pt == null) {
            pt = new PerThread();
            PerThread.set(pt);
        }
        pt.state = t0;
    }

    private static void point(Op.Kind kind, Object target, String name, String site) {
        ThreadState me = controlled(site);
        if (me != null) me.session.pass(me, new Op(kind, target, name, site));
    }

    /** A scheduling point, then the thread runs outside control for a call that may block. */
    public static void blocking(String call, String site) {
        ThreadState me = controlled(site);
        if (me != null) leaveFor(me, Op.Kind.BLOCKING_CALL, call, site);
    }

    /** `kind` is BLOCKING_CALL or SLEEP: an operation the model never blocks (a join or wait on
     *  something the session does not know is a blocking call, not a modelled join or wait). */
    static void leaveFor(ThreadState me, Op.Kind kind, String call, String site) {
        if (me.session.pass(me, new Op(kind, null, call, site)) != null)
            me.session.leave(me, "a call that may block ran uncontrolled: " + call + " at " + site);
    }

    // ---- monitors, wait and notify: see Monitors

    public static boolean monitorEnter(Object o, String site) { return Monitors.enter(o, site); }
    public static boolean monitorExit(Object o, String site) { return Monitors.exit(o, site); }
    public static void wait(Object o, String site) throws InterruptedException { Monitors.waitFor(o, -1, site); }

    public static void wait(Object o, long ms, String site) throws InterruptedException {
        if (ms < 0) throw new IllegalArgumentException("timeout value is negative");
        Monitors.waitFor(o, ms == 0 ? -1 : ms, site);
    }

    public static void wait(Object o, long ms, int nanos, String site) throws InterruptedException {
        if (ms < 0 || nanos < 0 || nanos > 999999) throw new IllegalArgumentException("timeout value out of range");
        Monitors.waitFor(o, ms == 0 && nanos == 0 ? -1 : ms + (nanos > 0 ? 1 : 0), site);
    }

    public static void notify(Object o, String site) { Monitors.notifyAny(o, Op.Kind.NOTIFY, site); }
    public static void notifyAll(Object o, String site) { Monitors.notifyAny(o, Op.Kind.NOTIFY_ALL, site); }

    // ---- threads

    public static void start(Thread t, String site) {
        if (t.getState() != Thread.State.NEW) {
            t.start();  // throws IllegalThreadStateException, as it would have
            return;
        }
        ThreadState me = controlled(site);
        Op done = me == null ? null : me.session.pass(me, new Op(Op.Kind.THREAD_START, t, null, site));
        ThreadState child = done != null && done.target instanceof ThreadState ? (ThreadState) done.target : null;
        try {
            t.start();
        } catch (RuntimeException | Error e) {
            if (child != null) me.session.startFailed(child);
            throw e;
        }
        if (child != null) me.session.realStarted(child);
    }

    public static void join(Thread t, String site) throws InterruptedException {
        joinFor(t, -1, site);
    }

    public static void join(Thread t, long ms, String site) throws InterruptedException {
        if (ms < 0) throw new IllegalArgumentException("timeout value is negative");
        joinFor(t, ms == 0 ? -1 : ms, site);
    }

    public static void join(Thread t, long ms, int nanos, String site) throws InterruptedException {
        if (ms < 0 || nanos < 0 || nanos > 999999) throw new IllegalArgumentException("timeout value out of range");
        joinFor(t, ms == 0 && nanos == 0 ? -1 : ms + (nanos > 0 ? 1 : 0), site);
    }

    private static void joinFor(Thread t, long ms, String site) throws InterruptedException {
        ThreadState me = controlled(site);
        ThreadState target = me == null ? null : me.session.stateOf(t);
        if (target == null) {
            if (me != null) leaveFor(me, Op.Kind.BLOCKING_CALL, "java.lang.Thread.join", site);
            t.join(ms < 0 ? 0 : ms);
            return;
        }
        if (Thread.interrupted()) throw new InterruptedException();
        Op op = new Op(Op.Kind.THREAD_JOIN, target, null, site).timed(ms).interruptible();
        Op done = me.session.pass(me, op);
        if (done == null) t.join(ms < 0 ? 0 : ms);
        else if (done.interrupted) throw new InterruptedException();
        else if (!done.timedOut) t.join();  // ended in the model: returns at once, with join's memory effects
    }

    public static void interrupt(Thread t, String site) {
        ThreadState me = controlled(site);
        ThreadState target = me == null ? null : me.session.stateOf(t);
        if (target != null) me.session.pass(me, new Op(Op.Kind.INTERRUPT, target, null, site));
        t.interrupt();
    }

    /** True also for a monitor the thread holds in the model only. */
    public static boolean holdsLock(Object o, String site) {
        if (o == null) throw new NullPointerException();
        PerThread pt = PerThread.get();
        return pt != null && pt.top(o) != null || Thread.holdsLock(o);
    }

    /** A controlled thread's state as the model sees it: BLOCKED on a monitor it waits for, ... */
    public static Thread.State getState(Thread t, String site) {
        Session s = Session.active;
        ThreadState ts = s == null ? null : s.stateOf(t);
        Thread.State modelled = ts == null ? null : s.modelledState(ts);
        return modelled != null ? modelled : t.getState();
    }

    public static void yield(String site) {
        ThreadState me = controlled(site);
        if (me != null) me.session.pass(me, new Op(Op.Kind.YIELD, me, null, site));
        else Thread.yield();
    }

    public static void onSpinWait(String site) {
        ThreadState me = controlled(site);
        if (me != null) me.session.pass(me, new Op(Op.Kind.YIELD, me, null, site));
        else Thread.onSpinWait();
    }

    // ---- sleep and the clock

    public static void sleep(long ms, String site) throws InterruptedException {
        if (ms < 0) throw new IllegalArgumentException("timeout value is negative");
        ThreadState me = controlled(site);
        if (me == null) {
            Thread.sleep(ms);
            return;
        }
        if (!me.session.settings.virtualTime) {
            leaveFor(me, Op.Kind.SLEEP, "java.lang.Thread.sleep", site);
            Thread.sleep(ms);
            return;
        }
        if (Thread.interrupted()) throw new InterruptedException("sleep interrupted");
        Op op = new Op(Op.Kind.SLEEP, me, null, site);
        op.amount = ms;
        if (me.session.pass(me, op) == null) Thread.sleep(ms);
        else if (Thread.interrupted()) throw new InterruptedException("sleep interrupted");
    }

    public static void sleep(long ms, int nanos, String site) throws InterruptedException {
        sleep(ms + (nanos > 0 ? 1 : 0), site);
    }

    public static void sleep(TimeUnit unit, long amount, String site) throws InterruptedException {
        if (amount > 0) sleep(Math.max(1, unit.toMillis(amount)), site);
    }

    private static long offsetMs() {
        Session s = Session.active;
        long live = s != null && s.settings.virtualTime ? s.model.virtualMs : 0;
        return Session.finishedVirtualMs + live;
    }

    public static long currentTimeMillis() {
        return System.currentTimeMillis() + offsetMs();
    }

    public static long nanoTime() {
        return System.nanoTime() + offsetMs() * 1_000_000L;
    }

    // ---- scheduling points before a call that stays as it is (atomics, Condition.signal)

    public static void before(Object receiver, String op, String site) {
        if (op.equals("hand_off")) {
            HandOffs.before(receiver, site);
            return;
        }
        Op.Kind kind = op.equals("notify") ? Op.Kind.NOTIFY : op.equals("notify_all") ? Op.Kind.NOTIFY_ALL : Op.Kind.ATOMIC;
        point(kind, receiver, null, site);
    }

    /** A call on a JDK object that is not thread-safe: see Calls. op: "call_read" or "call_write". */
    public static void call(Object receiver, String op, String site) {
        if (Session.active != null) Calls.point(receiver, op, site);
    }

    // ---- fields

    public static void fieldRead(Object o, String field, String site) {
        if (Session.active != null) point(Op.Kind.FIELD_READ, o, field, site);
    }

    public static void fieldWrite(Object o, String field, String site) {
        if (Session.active != null) point(Op.Kind.FIELD_WRITE, o, field, site);
    }

    public static void staticRead(String field, String site) {
        if (Session.active != null) point(Op.Kind.FIELD_READ, null, field, site);
    }

    public static void staticWrite(String field, String site) {
        if (Session.active != null) point(Op.Kind.FIELD_WRITE, null, field, site);
    }

    // ---- waits for a condition: see Waits

    public static void await(CountDownLatch latch, String site) throws InterruptedException { Waits.await(latch, site); }

    public static boolean await(CountDownLatch latch, long time, TimeUnit unit, String site) throws InterruptedException {
        return Waits.await(latch, time, unit, site);
    }

    public static boolean awaitTermination(ExecutorService e, long time, TimeUnit unit, String site) throws InterruptedException {
        return Waits.awaitTermination(e, time, unit, site);
    }

    public static Object get(Future<?> f, String site) throws InterruptedException, ExecutionException { return Waits.get(f, site); }

    public static Object get(Future<?> f, long time, TimeUnit unit, String site)
            throws InterruptedException, ExecutionException, TimeoutException {
        return Waits.get(f, time, unit, site);
    }

    public static Object joinFuture(CompletableFuture<?> f, String site) { return Waits.joinFuture(f, site); }

    // ---- LockSupport and locks: see ParkAndLocks

    public static void park(String site) { ParkAndLocks.park(null, -1, site); }
    public static void park(Object blocker, String site) { ParkAndLocks.park(blocker, -1, site); }
    public static void parkNanos(long nanos, String site) { if (nanos > 0) ParkAndLocks.park(null, nanos, site); }
    public static void parkNanos(Object blocker, long nanos, String site) { if (nanos > 0) ParkAndLocks.park(blocker, nanos, site); }
    public static void parkUntil(long deadline, String site) { parkUntil(null, deadline, site); }

    public static void parkUntil(Object blocker, long deadline, String site) {
        long ms = deadline - currentTimeMillis();
        if (ms > 0) ParkAndLocks.park(blocker, ms * 1_000_000L, site);
    }

    public static void unpark(Thread t, String site) { ParkAndLocks.unpark(t, site); }
    public static void lock(Lock l, String site) { ParkAndLocks.lock(l, site); }
    public static void lockInterruptibly(Lock l, String site) throws InterruptedException { ParkAndLocks.lockInterruptibly(l, site); }
    public static boolean tryLock(Lock l, String site) { return ParkAndLocks.tryLock(l, site); }

    public static boolean tryLock(Lock l, long time, TimeUnit unit, String site) throws InterruptedException {
        return ParkAndLocks.tryLock(l, time, unit, site);
    }

    public static void unlock(Lock l, String site) { ParkAndLocks.unlock(l, site); }

    static void parkReal(Object blocker, long nanos) {
        if (nanos < 0) LockSupport.park(blocker);
        else LockSupport.parkNanos(blocker, nanos);
    }
}
