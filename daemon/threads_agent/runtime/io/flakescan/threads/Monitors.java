package io.flakescan.threads;

/**
 * Monitors, wait and notify for rewritten code (called through Sched). Under control the model
 * holds the monitor and the real one is not taken: enter and exit return whether the caller
 * must still run the real monitorenter or monitorexit. Each thread that was ever controlled
 * keeps a stack of its entries (PerThread), real or modelled, so that every exit undoes its own
 * enter, also when control began or ended between the two. wait and notify follow the entry:
 * the model's when the thread holds the monitor in the model, the real ones otherwise.
 */
final class Monitors {
    private Monitors() {}

    static boolean enter(Object o, String site) {
        if (o == null) throw new NullPointerException("Cannot enter synchronized block because the monitor is null");
        ThreadState me = Sched.controlled(site);
        PerThread pt = PerThread.get();
        if (me != null && me.session.pass(me, new Op(Op.Kind.MONITOR_ENTER, o, null, site)) != null) {
            pt.monitors.add(new Object[] {o, me.session});
            return false;
        }
        if (pt != null) pt.monitors.add(new Object[] {o, null});
        return true;
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
        return false;
    }

    static void waitFor(Object o, long ms, String site) throws InterruptedException {
        PerThread pt = PerThread.get();
        Object[] entry = pt == null ? null : pt.top(o);
        if (entry == null || entry[1] == null) {
            ThreadState me = Sched.controlled(site);
            if (me != null) Sched.leaveFor(me, Op.Kind.WAIT, "java.lang.Object.wait", site);
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

    static void notifyAny(Object o, Op.Kind kind, String site) {
        PerThread pt = PerThread.get();
        Object[] entry = pt == null ? null : pt.top(o);
        if (entry == null || entry[1] == null) {
            if (kind == Op.Kind.NOTIFY) o.notify();
            else o.notifyAll();
            return;
        }
        Session s = (Session) entry[1];
        ThreadState me = pt.state;
        if (me.session == s && s.controlling) s.pass(me, new Op(kind, o, null, site));
    }
}
