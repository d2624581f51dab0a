package io.flakescan.threads;

import java.util.ArrayList;
import java.util.List;

/**
 * Declares a deadlock: every live controlled thread is blocked in the model (monitor, lock,
 * join, wait or park without a timeout) and none can be waited for. The report names each
 * blocked thread, what it holds (with where it took it) and what it waits for (with where, and
 * who holds it); thread 0 gets the DeadlockError when it is among them, else the blocked
 * thread with the lowest index. The others stay blocked for good (abandoned).
 */
final class Deadlocks {
    private Deadlocks() {}

    static void declare(Session s, List<ThreadState> blocked, boolean outsideBlocked) {
        StringBuilder message = new StringBuilder("deadlock: ");
        Json j = describeAll(s, blocked, message);
        if (outsideBlocked) {
            message.append(" (threads outside control were blocked for 1 s too)");
            j.key("outside_blocked").bool(true);
        }
        j.key("message").string(message.toString());
        j.endObject();
        s.deadlockJson = j.toString();
        ThreadState victim = blocked.get(0);
        for (ThreadState t : blocked) if (t.index == 0) victim = t;
        for (ThreadState t : blocked) if (t != victim) t.status = ThreadState.Status.ABANDONED;
        victim.deadlock = message.toString();
        victim.status = ThreadState.Status.RUNNING;
        s.holder = victim;
        s.notifyAll();
    }

    /**
     * A timed wait is about to time out because nothing else can run (Stuck): when threads among
     * `waiting` wait for each other in a cycle (each for a monitor or lock the next one holds, or
     * for its end), that is a deadlock behind the timeout. It becomes the record's deadlock (the
     * first one noticed), with `noticed_when`; nobody gets a DeadlockError: the timed wait times
     * out and the test goes on, failing its own way.
     */
    static void noticeCycle(Session s, List<ThreadState> waiting, ThreadState timingOut) {
        if (s.deadlockJson != null) return;
        List<ThreadState> cycle = cycle(s, waiting);
        if (cycle == null) return;
        StringBuilder message = new StringBuilder("deadlock: ");
        Json j = describeAll(s, cycle, message);
        String noticed = "thread " + timingOut.index + "'s timed " + opWord(timingOut.pending) + " timed out";
        message.append(" (noticed when ").append(noticed).append(')');
        j.key("noticed_when").string(noticed).key("message").string(message.toString()).endObject();
        s.deadlockJson = j.toString();
    }

    /**
     * A wait-for cycle no thread outside control can break: each member waits, without a
     * timeout and not interruptibly, for a monitor or lock the next member holds. JUnit 4's
     * `@Test(timeout)` runs the body in a thread of its own while its caller waits in a timed
     * Future.get outside control; such a cycle is a deadlock whatever that caller does.
     */
    static List<ThreadState> lockCycle(Session s, List<ThreadState> waiting) {
        List<ThreadState> cycle = cycle(s, waiting);
        if (cycle == null) return null;
        for (ThreadState t : cycle) {
            Op op = t.pending;
            boolean lockWait = op.kind == Op.Kind.MONITOR_ENTER && (!op.waitReturn || op.notified) || op.kind == Op.Kind.LOCK;
            if (!lockWait || op.interruptible) return null;
        }
        return cycle;
    }

    private static String opWord(Op op) {
        switch (op.kind) {
            case THREAD_JOIN: return "join";
            case LOCK: return "tryLock";
            case PARK: return "park";
            case MONITOR_ENTER: return "wait";  // a wait's return
            default: return op.kind.json;
        }
    }

    /** The first wait-for cycle among `waiting` (in index order), each member blocked without a timeout; null when none. */
    private static List<ThreadState> cycle(Session s, List<ThreadState> waiting) {
        for (ThreadState start : waiting) {
            List<ThreadState> path = new ArrayList<>();
            ThreadState t = start;
            while (t != null && !path.contains(t)) {
                if (t.status != ThreadState.Status.WAITING || Model.timed(t.pending) || s.model.enabled(t)) break;
                path.add(t);
                t = holderOf(s, t.pending);
            }
            if (t != null && path.contains(t)) return path.subList(path.indexOf(t), path.size());
        }
        return null;
    }

    /** An open object {"threads": [each of `blocked`]}, and the message's sentence for them. */
    private static Json describeAll(Session s, List<ThreadState> blocked, StringBuilder message) {
        Json j = new Json().beginObject();
        j.key("threads").beginArray();
        for (int i = 0; i < blocked.size(); i++) {
            describe(s, blocked.get(i), j, message);
            if (i + 1 < blocked.size()) message.append("; ");
        }
        j.endArray();
        return j;
    }

    private static void describe(Session s, ThreadState t, Json j, StringBuilder message) {
        Op op = t.pending;
        ThreadState heldBy = holderOf(s, op);
        j.beginObject().key("thread").number(t.index).key("name").string(t.name);
        j.key("waits_for").beginObject().key("op").string(op.kind.json).key("target").string(s.model.target(op))
                .key("site").string(op.site);
        if (heldBy != null) j.key("held_by").number(heldBy.index);
        if (op.waitReturn) j.key("waiting_for_notify").bool(!op.notified);
        j.endObject();
        j.key("holds").beginArray();
        message.append("thread ").append(t.index).append(" (").append(t.name).append(")");
        if (!t.holds.isEmpty()) message.append(" holds");
        for (ThreadState.Hold h : t.holds) {
            String target = s.model.target(new Op(Op.Kind.LOCK, h.target, null, h.site));
            j.beginObject().key("target").string(target).key("site").string(h.site).endObject();
            message.append(' ').append(target).append(" (taken at ").append(h.site).append(')');
        }
        j.endArray().endObject();
        message.append(t.holds.isEmpty() ? " waits for " : " and waits for ");
        if (op.kind == Op.Kind.THREAD_JOIN) message.append(s.model.target(op)).append(" to end");
        else if (op.waitReturn && !op.notified) message.append("a notify on ").append(s.model.target(op));
        else message.append(s.model.target(op));
        if (heldBy != null && op.kind != Op.Kind.THREAD_JOIN) message.append(" held by thread ").append(heldBy.index);
        message.append(" at ").append(op.site);
    }

    private static ThreadState holderOf(Session s, Op op) {
        if (op.target instanceof ThreadState) return op.kind == Op.Kind.THREAD_JOIN ? (ThreadState) op.target : null;
        if (op.kind == Op.Kind.MONITOR_ENTER) return s.model.ownerOf(op.target);
        if (op.kind == Op.Kind.LOCK)
            for (ThreadState t : s.threads)
                for (ThreadState.Hold h : t.holds) if (h.target == op.target) return t;
        return null;
    }
}
