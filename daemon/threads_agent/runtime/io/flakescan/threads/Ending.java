package io.flakescan.threads;

import java.util.ArrayList;
import java.util.List;

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
            if (s.controlling) {
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
