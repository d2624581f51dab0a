package io.flakescan.threads;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * LockSupport and java.util.concurrent.locks.Lock under control. park/unpark are modelled with
 * the permit. A lock is not modelled from the inside (a Lock may be a read lock, a write lock or
 * the project's own): the model only decides who tries when. A chosen "lock" step makes a real
 * tryLock(), which cannot block; when it fails the thread waits in the model until a lock may
 * have been released (an unlock step, a blocking call, a thread's end or stall: the lock epoch
 * moves), and tries again as a new step. When nothing else can run, failed attempts get one
 * more try before a deadlock is declared (Session.unstick). A Lock whose class overrides one of
 * these methods outside the JDK is not modelled: its own code runs as written (rewritten too),
 * and a real lock it takes inside may block, which the Watchdog resolves as a stall.
 */
final class ParkAndLocks {
    private ParkAndLocks() {}

    static void park(Object blocker, long nanos, String site) {
        ThreadState me = Sched.controlled(site);
        if (me == null) {
            Sched.parkReal(blocker, nanos);
            return;
        }
        if (Thread.currentThread().isInterrupted()) return;
        long ms = nanos < 0 ? -1 : Math.max(1, (nanos + 999_999) / 1_000_000);
        Op done = me.session.pass(me, new Op(Op.Kind.PARK, me, null, site).timed(ms).interruptible());
        if (done == null) Sched.parkReal(blocker, nanos);
        else if (done.interrupted) Thread.currentThread().interrupt();  // park returns with the flag still set
    }

    static void unpark(Thread t, String site) {
        ThreadState me = Sched.controlled(site);
        ThreadState target = me == null || t == null ? null : me.session.stateOf(t);
        if (target == null || me.session.pass(me, new Op(Op.Kind.UNPARK, target, null, site)) == null) LockSupport.unpark(t);
    }

    /** Per Lock class: whether it keeps the JDK's lock methods (then the model may stand in for them). */
    private static final ClassValue<Boolean> MODELLED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            try {
                for (java.lang.reflect.Method m : new java.lang.reflect.Method[] {c.getMethod("lock"), c.getMethod("lockInterruptibly"),
                        c.getMethod("tryLock"), c.getMethod("tryLock", long.class, TimeUnit.class), c.getMethod("unlock")}) {
                    ClassLoader loader = m.getDeclaringClass().getClassLoader();
                    if (loader != null && loader != ClassLoader.getPlatformClassLoader()) return false;
                }
                return true;
            } catch (NoSuchMethodException | SecurityException e) {
                return false;
            }
        }
    };

    private static ThreadState controlledFor(Lock l, String site) {
        return MODELLED.get(l.getClass()) ? Sched.controlled(site) : null;
    }

    static void lock(Lock l, String site) {
        ThreadState me = controlledFor(l, site);
        if (me == null || !acquire(me, l, -1, false, site)) l.lock();
    }

    static void lockInterruptibly(Lock l, String site) throws InterruptedException {
        ThreadState me = controlledFor(l, site);
        if (Thread.interrupted()) throw new InterruptedException();
        if (me == null || !acquire(me, l, -1, true, site)) l.lockInterruptibly();
    }

    static boolean tryLock(Lock l, String site) {
        ThreadState me = controlledFor(l, site);
        if (me != null) me.session.pass(me, new Op(Op.Kind.TRY_LOCK, l, null, site));
        boolean got = l.tryLock();
        if (got && me != null) me.session.acquired(me, l, site);
        return got;
    }

    static boolean tryLock(Lock l, long time, TimeUnit unit, String site) throws InterruptedException {
        ThreadState me = controlledFor(l, site);
        if (me == null) return l.tryLock(time, unit);
        if (Thread.interrupted()) throw new InterruptedException();
        long ms = Math.max(0, unit.toMillis(time));
        Boolean got = attempt(me, l, ms, true, site);
        return got == null ? l.tryLock(time, unit) : got;
    }

    static void unlock(Lock l, String site) {
        ThreadState me = controlledFor(l, site);
        if (me != null) me.session.pass(me, new Op(Op.Kind.UNLOCK, l, null, site));
        l.unlock();
    }

    /** True when the lock was taken under control; false when control ended (take it for real). */
    private static boolean acquire(ThreadState me, Lock l, long ms, boolean interruptible, String site) {
        try {
            Boolean got = attempt(me, l, ms, interruptible, site);
            return got != null;
        } catch (InterruptedException e) {
            throw sneaky(e);
        }
    }

    /** Attempts as steps until one succeeds (TRUE), a timeout ends it (FALSE) or control ends (null). */
    private static Boolean attempt(ThreadState me, Lock l, long ms, boolean interruptible, String site) throws InterruptedException {
        Op op = new Op(Op.Kind.LOCK, l, null, site).timed(ms);
        if (interruptible) op.interruptible();
        while (true) {
            Op done = me.session.pass(me, op);
            if (done == null) return null;
            if (done.interrupted) throw new InterruptedException();
            if (l.tryLock()) {
                me.session.acquired(me, l, site);
                return Boolean.TRUE;
            }
            if (done.timedOut) return Boolean.FALSE;
            op.failedAtEpoch = me.session.lockEpoch();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
