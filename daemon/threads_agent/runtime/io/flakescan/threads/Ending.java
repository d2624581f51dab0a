package io.flakescan.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/** The end of a session (Control.end): control stops, threads are released or abandoned, the record is written. */
final class Ending {
    private Ending() {}

    /**
     * Ends control: threads still alive are released or, when blocked in the model, abandoned.
     * Released threads that are still running get a moment (50 ms in all) to end before the
     * record lists what outlived the test: a thread on its way out (JUnit's timeout thread after
     * the test body returned) did not outlive it.
     */
    static String finish(Session s) {
        List<ThreadState> ending = new ArrayList<>();
        synchronized (s) {
            if (s.recordJson != null) return s.recordJson;
            if (!s.finished) {
                s.finished = true;
                s.controlling = false;
                if (Session.active == s) Session.active = null;
                Session.finishedVirtualMs += s.model.virtualMs;
                release(s, ending);
            }
        }
        long deadline = System.nanoTime() + 50_000_000L;
        for (ThreadState t : ending) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) break;
            try {
                t.thread.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        synchronized (s) {
            if (s.recordJson != null) return s.recordJson;
            List<ThreadState> outlived = new ArrayList<>();
            for (ThreadState t : s.threads) {
                if (t.index == 0 || t.status == ThreadState.Status.ENDED) continue;
                if (!t.realStarted || !t.thread.isAlive()) continue;
                outlived.add(t);
            }
            s.recordJson = RecordJson.write(s, outlived);
            return s.recordJson;
        }
    }

    /**
     * Past the step limit nothing is chosen by the strategy any more, yet every point would still
     * pass through the scheduler one thread at a time: a compute-heavy test with a pool could not
     * finish. So control ends, during the test, at the first decision after the limit where no
     * thread holds a monitor or lock in the model and none waits on a monitor: from then on
     * every thread's monitors are real again and nothing the model stood in for is lost. A permit
     * given in the model is given for real. Returns whether control ended (called from decide,
     * with the session's lock held). The record is still written by finish.
     */
    static boolean atLimit(Session s) {
        if (s.model.anyWaiters()) return false;
        for (ThreadState t : s.threads) if (!t.holds.isEmpty()) return false;
        s.controlling = false;
        s.record.inexact("control ended after the step limit, at the first point where no thread held a monitor or lock: the rest ran uncontrolled");
        for (ThreadState t : s.threads) {
            if (t.status == ThreadState.Status.ENDED || !t.realStarted) continue;
            if (t.permit) LockSupport.unpark(t.thread);
            t.status = ThreadState.Status.RELEASED;
        }
        s.holder = null;
        s.notifyAll();
        return true;
    }

    /** Releases every thread but those blocked in the model; `running` gets the released that still run. */
    private static void release(Session s, List<ThreadState> running) {
        for (ThreadState t : s.threads) {
            if (t.index == 0) {
                t.status = ThreadState.Status.RELEASED;
                continue;
            }
            if (t.status == ThreadState.Status.ENDED || !t.realStarted) continue;
            boolean blocked = t.status == ThreadState.Status.WAITING && !s.model.enabled(t);
            if (blocked) t.status = ThreadState.Status.ABANDONED;
            else if (t.status != ThreadState.Status.ABANDONED) t.status = ThreadState.Status.RELEASED;
            if (t.status == ThreadState.Status.RELEASED && t.thread.getState() == Thread.State.RUNNABLE) running.add(t);
        }
        s.notifyAll();
    }
}
