package io.flakescan.threads;

/**
 * Monitors, wait and notify for rewritten code (called through Sched). Under control the model
 * holds the monitor: enter and exit return whether the caller must also run the real
 * monitorenter or monitorexit. They must for an object of a JDK class (but a plain Object or a
 * Class) or of a project class that extends one (a Vector subclass): the JDK may synchronise on it itself (Collections.synchronizedList, Vector,
 * StringBuffer), and `synchronized (list) { iterate }` must keep its add() out. wait and notify
 * on such a monitor are the real ones; the model lets the monitor go around the real wait,
 * which runs outside control. Each thread that was ever controlled keeps a stack of its entries
 * (PerThread) {monitor, session or null, real too}, so that every exit undoes its own enter,
 * also when control began or ended between the two.
 */
final class Monitors {
    private Monitors() {}

    static boolean enter(Object o, String site) {
        if (o == null) throw new NullPointerException("Cannot enter synchronized block because the monitor is null");
        ThreadState me = Sched.controlled(site);
        PerThread pt = PerThread.get();
        if (me != null && me.session.pass(me, new Op(Op.Kind.MONITOR_ENTER, o, null, site)) != null) {
            boolean real = jdkMonitor(o);
            pt.monitors.add(new Object[] {o, me.session, real});
            return real;
        }
        if (pt != null) pt.monitors.add(new Object[] {o, null, Boolean.TRUE});
        return true;
    }

    /**
     * An object the JDK's own code may synchronise on: of a JDK class other than Object and
     * Class, or of a project class whose super chain reaches one (a subclass of Vector,
     * Hashtable, Observable, StringBuffer, Thread, ...: their inherited synchronized methods
     * lock this).
     */
    private static boolean jdkMonitor(Object o) {
        if (o instanceof Class) return false;
        return JDK_SUPER.get(o.getClass());
    }

    private static final ClassValue<Boolean> JDK_SUPER = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            ClassLoader platform = ClassLoader.getPlatformClassLoader();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                ClassLoader loader = c.getClassLoader();
                if (loader == null || loader == platform) return Boolean.TRUE;
            }
            return Boolean.FALSE;
        }
    };

    private static boolean realToo(Object[] entry) {
        return entry[1] == null || (Boolean) entry[2];
    }

    static boolean exit(Object o, String site) {
        PerThread pt = PerThread.get();
        Object[] entry = pt == null ? null : pt.top(o);
        if (entry == null) return true;
        pt.monitors.remove(entry);
        if (entry[1] == null) return true;
        Session s = (Session) entry[1];
        ThreadState me = pt.state;
        if (me != null && me.session == s && s.controlling && s.owns(me, o)) s.pass(me, new Op(Op.Kind.MONITOR_EXIT, o, null, site));
        return (Boolean) entry[2];
    }

    static void waitFor(Object o, long ms, String site) throws InterruptedException {
        PerThread pt = PerThread.get();
        Object[] entry = pt == null ? null : pt.top(o);
        if (entry != null && entry[1] != null && (Boolean) entry[2]) {
            realWaitUnderModel(pt.state, (Session) entry[1], o, ms, site);
            return;
        }
        if (entry == null || entry[1] == null) {
            ThreadState me = Sched.controlled(site);
            if (me != null) Sched.leaveFor(me, Op.Kind.BLOCKING_CALL, "java.lang.Object.wait", site);
            o.wait(ms < 0 ? 0 : ms);
            return;
        }
        Session s = (Session) entry[1];
        ThreadState me = pt.state;
        if (Thread.interrupted()) throw new InterruptedException();
        Op done = me.session == s && s.controlling ? s.pass(me, new Op(Op.Kind.WAIT, o, null, site).timed(ms)) : null;
        if (done == null) {
            // Held in the model of a session that no longer controls: a spurious wake-up, a little later.
            Thread.sleep(ms < 0 ? 10 : Math.min(ms, 10));
            return;
        }
        if (done.interrupted) throw new InterruptedException();
    }

    /**
     * wait on a monitor held in the model and for real: a "wait" step lets the model's monitor
     * go, the real wait runs outside control, and a "monitor_enter" step takes the model's back.
     */
    private static void realWaitUnderModel(ThreadState me, Session s, Object o, long ms, String site) throws InterruptedException {
        Op release = new Op(Op.Kind.WAIT, o, null, site);
        release.realWait = true;
        Op done = me.session == s && s.controlling ? s.pass(me, release) : null;
        if (done != null) s.leave(me, "a wait on " + o.getClass().getName() + ", which the JDK may also lock, ran uncontrolled at " + site);
        try {
            o.wait(ms < 0 ? 0 : ms);
        } finally {
            if (done != null) {
                Op back = new Op(Op.Kind.MONITOR_ENTER, o, null, site);
                back.reacquire = true;
                back.count = done.count;
                s.pass(me, back);
            }
        }
    }

    static void notifyAny(Object o, Op.Kind kind, String site) {
        PerThread pt = PerThread.get();
        Object[] entry = pt == null ? null : pt.top(o);
        if (entry == null || realToo(entry)) {
            if (kind == Op.Kind.NOTIFY) o.notify();
            else o.notifyAll();
            return;
        }
        Session s = (Session) entry[1];
        ThreadState me = pt.state;
        if (me.session == s && s.controlling) s.pass(me, new Op(kind, o, null, site));
    }
}
