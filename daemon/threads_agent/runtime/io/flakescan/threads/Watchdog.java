package io.flakescan.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Liveness for the scheduler, one daemon thread for the JVM. About every 10 ms of a session it
 * (1) records the end of controlled threads that terminated (every millisecond while a thread
 * runs, so an end is seen at once), (2) takes control away from a thread the scheduler waits for that is
 * blocked in code we do not rewrite (50 ms for the running thread, 200 ms for one not yet at
 * its first point) or has not reached a scheduling point within 1 s of its own CPU time (Busy),
 * and (3) when nothing has
 * been enabled for 1 s while threads outside control were all blocked, or while threads not
 * (yet) under control ran, resolves the stuck state (timeouts, then a deadlock). These are fallbacks for liveness, never timing assertions; each
 * makes the record inexact except (1).
 */
final class Watchdog extends Thread {
    private static final long MS = 1_000_000L;
    private static Watchdog instance;

    private Watchdog() {
        super("flakescan-threads-watchdog");
        setDaemon(true);
    }

    static synchronized void ensureRunning() {
        if (instance == null) {
            instance = new Watchdog();
            instance.start();
        }
    }

    /** Threads never put under control: the JVM's own and this one. */
    static boolean excluded(Thread t) {
        if (t instanceof Watchdog) return true;
        ThreadGroup g = t.getThreadGroup();
        if (g == null || g.getParent() == null) return true;  // the "system" group: Finalizer, Reference Handler, ...
        String n = t.getName();
        return n.equals("Common-Cleaner") || n.equals("Signal Dispatcher");
    }

    @Override
    public void run() {
        Busy.ready();  // its CPU clock is set up here, not first under a session's lock
        while (true) {
            try {
                Session s = Session.active;
                if (s == null) {
                    Thread.sleep(10);
                    continue;
                }
                // Not watched.join(10): join takes the Thread object's monitor, which the
                // program may hold (synchronized (Thread.currentThread())) while it waits in the
                // scheduler, and the watchdog would block for good. A short park instead: the
                // end of the running thread is seen within a millisecond.
                if (watched(s) != null) LockSupport.parkNanos(MS);
                else Thread.sleep(10);
                long now = System.nanoTime();
                check(s, now);
                Progress.maybeWrite(s, now);
            } catch (InterruptedException e) {
                // keep watching
            } catch (RuntimeException | Error e) {
                System.err.println("flakescan threads: watchdog: " + e);
            }
        }
    }

    private static Thread watched(Session s) {
        synchronized (s) {
            if (s.holder != null) return s.holder.thread;
            for (ThreadState t : s.threads)
                if (t.status == ThreadState.Status.ARRIVING && t.realStarted) return t.thread;
            return null;
        }
    }

    private static void check(Session s, long now) {
        synchronized (s) {
            if (!s.controlling) return;
            for (ThreadState t : new ArrayList<>(s.threads)) {
                boolean live = t.status == ThreadState.Status.ARRIVING || t.status == ThreadState.Status.RUNNING
                        || t.status == ThreadState.Status.OUTSIDE;
                if (live && t.realStarted && t.index != 0 && !t.thread.isAlive()) s.ended(t);
            }
            boolean someoneWaits = false;
            for (ThreadState t : s.threads)
                if (t.status == ThreadState.Status.WAITING || t.status == ThreadState.Status.ARRIVING) someoneWaits = true;
            if (s.holder != null && someoneWaits) stall(s, s.holder, now, 50 * MS);
            if (s.holder == null)
                for (ThreadState t : new ArrayList<>(s.threads))
                    if (t.status == ThreadState.Status.ARRIVING && t.realStarted) stall(s, t, now, 200 * MS);
            if (s.holder == null && s.expectedArrivals > 0 && now - s.expectedSince >= 1000 * MS) s.giveUpArrivals();
            if (s.holder == null) s.decide();  // a condition outside the model (a latch, a future) may hold now
            if (s.holder == null && s.stuckSince != 0 && now - s.stuckSince >= 1000 * MS) {
                boolean outside = false;
                for (ThreadState t : s.threads) if (t.status == ThreadState.Status.OUTSIDE) outside = true;
                if (outside && !outsideBlocked(s)) return;
                s.stuckSince = 0;
                List<ThreadState> waiting = new ArrayList<>();
                for (ThreadState t : s.threads) if (t.status == ThreadState.Status.WAITING) waiting.add(t);
                if (s.unstick(waiting, true, outside)) s.decide();
            }
        }
    }

    private static void stall(Session s, ThreadState t, long now, long blockedLimit) {
        if (t.inScheduler) {
            t.blockedSince = 0;
            return;
        }
        Thread.State state = t.thread.getState();
        boolean blocked = state == State.BLOCKED || state == State.WAITING || state == State.TIMED_WAITING;
        if (blocked && idleInPool(t.thread)) {
            s.leave(t, null);
        } else if (blocked && inAgent(t.thread)) {
            // Waiting for a lock of the agent's own (the session's, which this watchdog and the
            // other threads take too): scheduler business, not the test's code. On a loaded
            // machine the thread holding it may not run for 50 ms.
            t.blockedSince = 0;
        } else if (blocked) {
            if (t.blockedSince == 0) t.blockedSince = now;
            else if (now - t.blockedSince >= blockedLimit)
                s.leave(t, "thread " + t.index + " (" + t.name + ") blocked in code that is not rewritten" + at(t.thread));
        } else {
            t.blockedSince = 0;
            String why = Busy.tooLong(t, Math.max(t.since, t == s.holder ? s.contendedSince : 0), now);
            if (why != null) s.leave(t, "thread " + t.index + " (" + t.name + ") " + why + at(t.thread));
        }
    }

    /** Blocked in the agent's runtime itself (a synchronized method of Session, say). */
    private static boolean inAgent(Thread t) {
        StackTraceElement[] frames = t.getStackTrace();
        return frames.length > 0 && frames[0].getClassName().startsWith("io.flakescan.threads.");
    }

    /** A pool worker back in ThreadPoolExecutor.getTask, waiting for its next task. */
    private static boolean idleInPool(Thread t) {
        for (StackTraceElement f : t.getStackTrace())
            if (f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor") && f.getMethodName().equals("getTask")) return true;
        return false;
    }

    /** Every thread outside control is blocked without a timeout: none of them will come back by itself. */
    private static boolean outsideBlocked(Session s) {
        boolean any = false;
        for (ThreadState t : s.threads) {
            if (t.status != ThreadState.Status.OUTSIDE) continue;
            any = true;
            Thread.State state = t.thread.getState();
            if (state != State.WAITING && state != State.BLOCKED) return false;
        }
        return any;
    }

    private static String at(Thread t) {
        StackTraceElement[] frames = t.getStackTrace();
        for (StackTraceElement f : frames) {
            String c = f.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) return " at " + f;
        }
        return frames.length > 0 ? " at " + frames[0] : "";
    }
}
