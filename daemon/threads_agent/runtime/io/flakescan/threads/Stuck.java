package io.flakescan.threads;

import java.util.List;

/**
 * What the scheduler does when no waiting thread is enabled (Session.decide): failed lock
 * attempts get one more try, then the timed operation with the earliest deadline times out (the
 * virtual clock jumps to it), then it is a deadlock (Deadlocks), unless a thread the session does
 * not know yet is still running; the Watchdog comes back for that one after 1 s. Called with the
 * session's lock held.
 */
final class Stuck {
    private Stuck() {}

    /**
     * Nothing is enabled. Returns true when something changed (a retry or a timeout) so that
     * deciding again may choose; false after declaring a deadlock, when nobody waits, or when
     * a deadlock must wait (`late` false) because a thread we do not know yet may still come:
     * a pool's worker reaches its first point on its own time. The Watchdog comes back `late`.
     */
    static boolean unstick(Session s, List<ThreadState> waiting, boolean late, boolean outsideBlocked) {
        if (waiting.isEmpty()) return false;
        boolean failedLocks = false;
        for (ThreadState t : waiting)
            if (t.pending.kind == Op.Kind.LOCK && t.pending.failedAtEpoch == s.model.lockEpoch) failedLocks = true;
        if (failedLocks && s.stuckRetryEpoch != s.model.lockEpoch) {
            s.stuckRetryEpoch = ++s.model.lockEpoch;
            return true;
        }
        ThreadState first = null;
        for (ThreadState t : waiting)
            if (Model.timed(t.pending) && (first == null || t.pending.deadline < first.pending.deadline)) first = t;
        if (first != null) {
            Deadlocks.noticeCycle(s, waiting, first);
            if (s.model.virtualTime && first.pending.deadline > s.model.virtualMs) s.model.virtualMs = first.pending.deadline;
            first.pending.timedOut = true;
            return true;
        }
        if (!late && strangersRunning(s)) {
            if (s.stuckSince == 0) s.stuckSince = System.nanoTime();
            return false;
        }
        Deadlocks.declare(s, waiting, outsideBlocked);
        return false;
    }

    /** Whether a live thread this session does not know (nor excludes) is running or runnable. */
    private static boolean strangersRunning(Session s) {
        for (Thread t : HandOffs.liveList()) {
            if (s.byThread.containsKey(t) || Watchdog.excluded(t)) continue;
            Thread.State st = t.getState();
            if (st == Thread.State.RUNNABLE || st == Thread.State.BLOCKED) return true;
        }
        return false;
    }
}
