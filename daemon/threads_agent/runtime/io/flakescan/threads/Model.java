package io.flakescan.threads;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The scheduler's model of what controlled threads share: monitors (owner, reentrant count,
 * waiters and pending notifications), LockSupport permits, lock epochs, the virtual clock and
 * the object numbers that name targets. Invariants: a monitor has at most one owner; only the
 * session's lock guards this state (every method is called with the Session's monitor held).
 *
 * A notify does not pick its waiter: it leaves a token any one of the threads that waited at
 * that moment may consume, and the scheduler's ordinary choice of which of them passes its
 * "monitor_enter" first is the choice of the waiter. So the choice is a recorded decision and
 * replays like any other.
 */
final class Model {
    static final class Monitor {
        ThreadState owner;
        int count;
        final List<ThreadState> waiters = new ArrayList<>();
        final List<Set<ThreadState>> tokens = new ArrayList<>();
    }

    private final IdentityHashMap<Object, Monitor> monitors = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
    /** Moves on every unlock, blocking call, thread end or stall: failed lock attempts may retry. */
    long lockEpoch;
    volatile long virtualMs;
    final boolean virtualTime;

    Model(boolean virtualTime) {
        this.virtualTime = virtualTime;
    }

    Monitor monitor(Object o) {
        return monitors.computeIfAbsent(o, k -> new Monitor());
    }

    /** Whether a thread waits on a monitor (between its "wait" step and its monitor_enter back). */
    boolean anyWaiters() {
        for (Monitor m : monitors.values()) if (!m.waiters.isEmpty()) return true;
        return false;
    }

    ThreadState ownerOf(Object o) {
        Monitor m = monitors.get(o);
        return m == null ? null : m.owner;
    }

    /** "oN": objects numbered in the order the schedule first names them. */
    String id(Object o) {
        Integer n = ids.get(o);
        if (n == null) {
            n = ids.size() + 1;
            ids.put(o, n);
        }
        return "o" + n;
    }

    /** The contract's target text: Class.field[@oN], Type@oN, thread#I, or a call's name. */
    String target(Op op) {
        if (op.target instanceof ThreadState) return ((ThreadState) op.target).ref();
        if (op.name != null) return op.target == null ? op.name : op.name + "@" + id(op.target);
        return op.target == null ? "" : op.target.getClass().getName() + "@" + id(op.target);
    }

    /** Whether `t` may pass its pending operation now. */
    boolean enabled(ThreadState t) {
        Op op = t.pending;
        if (op.until != null) return op.timedOut || op.interrupted || op.until.getAsBoolean();
        switch (op.kind) {
            case MONITOR_ENTER: {
                Monitor m = monitors.get(op.target);
                boolean free = m == null || m.owner == null || m.owner == t;
                if (!op.waitReturn) return free;
                return free && (op.notified || op.timedOut || op.interrupted || hasToken(m, t));
            }
            case THREAD_JOIN:
                return ((ThreadState) op.target).status == ThreadState.Status.ENDED || op.timedOut || op.interrupted;
            case PARK:
                return t.permit || op.timedOut || op.interrupted;
            case LOCK:
                return op.failedAtEpoch < lockEpoch || op.timedOut || op.interrupted;
            default:
                return true;
        }
    }

    /** Whether `t` is blocked on something that a timeout could end. */
    static boolean timed(Op op) {
        return op.timeoutMs >= 0 && !op.timedOut;
    }

    /** Applies `op`, which `t` passes now; returns the operation `t` goes on waiting with, or null. */
    Op apply(ThreadState t, Op op) {
        if (op.until != null) return null;
        switch (op.kind) {
            case MONITOR_ENTER: enter(t, op); return null;
            case MONITOR_EXIT: exit(t, op.target); return null;
            case WAIT: return startWait(t, op);
            case NOTIFY: notifyOne(op.target); return null;
            case NOTIFY_ALL:
                for (ThreadState w : monitor(op.target).waiters) if (w.pending != null) w.pending.notified = true;
                return null;
            case PARK:
                if (!op.timedOut && !op.interrupted) t.permit = false;
                return null;
            case UNPARK: ((ThreadState) op.target).permit = true; return null;
            case INTERRUPT: {
                // The real interrupt follows at once; marking the wait here makes its end a
                // decision, not a race with the interrupted thread's own wake-up.
                ThreadState target = (ThreadState) op.target;
                if (target.status == ThreadState.Status.WAITING) {
                    target.interruptPending = true;  // the real interrupt will meet it in the scheduler's wait
                    if (target.pending != null && target.pending.interruptible) target.pending.interrupted = true;
                }
                return null;
            }
            case UNLOCK: t.dropHold(op.target); lockEpoch++; return null;
            case SLEEP:
                if (virtualTime) virtualMs += op.amount;
                return null;
            default: return null;
        }
    }

    private void enter(ThreadState t, Op op) {
        Monitor m = monitor(op.target);
        if (op.reacquire) {
            m.owner = t;
            m.count = op.count;
            t.holds.add(new ThreadState.Hold(op.target, op.site));
            return;
        }
        if (op.waitReturn) {
            if (!op.notified && !op.timedOut && !op.interrupted) consumeToken(m, t);
            m.waiters.remove(t);
            for (Set<ThreadState> token : m.tokens) token.remove(t);
            m.tokens.removeIf(Set::isEmpty);
            m.owner = t;
            m.count = op.count;
            t.holds.add(new ThreadState.Hold(op.target, op.site));
            return;
        }
        if (m.owner == t) {
            m.count++;
            return;
        }
        m.owner = t;
        m.count = 1;
        t.holds.add(new ThreadState.Hold(op.target, op.site));
    }

    /** True when `t` owns `o`'s monitor in the model. */
    boolean owns(ThreadState t, Object o) {
        Monitor m = monitors.get(o);
        return m != null && m.owner == t;
    }

    void exit(ThreadState t, Object o) {
        Monitor m = monitors.get(o);
        if (m == null || m.owner != t) return;  // a DeadlockError unwinding a wait it never got back from
        if (--m.count == 0) {
            m.owner = null;
            t.dropHold(o);
        }
    }

    private Op startWait(ThreadState t, Op op) {
        Monitor m = monitor(op.target);
        if (op.realWait) {
            op.count = m.count;
            m.owner = null;
            m.count = 0;
            t.dropHold(op.target);
            return null;
        }
        Op back = new Op(Op.Kind.MONITOR_ENTER, op.target, null, op.site);
        back.waitReturn = true;
        back.count = m.count;
        back.interruptible = true;
        if (op.timeoutMs >= 0) {
            back.timeoutMs = op.timeoutMs;
            back.deadline = virtualMs + op.timeoutMs;
        }
        m.owner = null;
        m.count = 0;
        t.dropHold(op.target);
        m.waiters.add(t);
        return back;
    }

    private void notifyOne(Object o) {
        Monitor m = monitor(o);
        Set<ThreadState> eligible = new LinkedHashSet<>();
        for (ThreadState w : m.waiters) if (w.pending != null && !w.pending.notified && !w.pending.timedOut) eligible.add(w);
        if (eligible.isEmpty()) return;
        // Each outstanding token is one waiter already spoken for.
        int spoken = m.tokens.size();
        if (eligible.size() > spoken) m.tokens.add(eligible);
    }

    private static boolean hasToken(Monitor m, ThreadState t) {
        for (Set<ThreadState> token : m.tokens) if (token.contains(t)) return true;
        return false;
    }

    private static void consumeToken(Monitor m, ThreadState t) {
        for (int i = 0; i < m.tokens.size(); i++) {
            if (m.tokens.get(i).contains(t)) {
                m.tokens.remove(i);
                return;
            }
        }
    }
}
