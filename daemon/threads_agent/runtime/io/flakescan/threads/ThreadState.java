package io.flakescan.threads;

import java.util.ArrayList;
import java.util.List;

/** One controlled thread of a session (Session): where it is, what it waits for, what it holds. */
final class ThreadState {
    enum Status {
        /** Registered (started from rewritten code, or met at its first point) and not yet at a point. */
        ARRIVING,
        /** At a scheduling point with a pending operation, waiting to be chosen. */
        WAITING,
        /** Chosen: the one controlled thread that runs. */
        RUNNING,
        /** Left control (a blocking call into the JDK, or a stall); rejoins at its next point. */
        OUTSIDE,
        ENDED,
        /** The session ended or stopped controlling: it runs on uncontrolled. */
        RELEASED,
        /** Deadlocked and not the thread that got the DeadlockError: stays blocked for good. */
        ABANDONED
    }

    /** A model monitor or lock this thread holds, with where it took it (deadlock reports). */
    static final class Hold {
        final Object target;
        final String site;

        Hold(Object target, String site) {
            this.target = target;
            this.site = site;
        }
    }

    final Session session;
    /** Fixed once the thread passed a step; a thread met at its first point may be renumbered
     *  before that (Session.orderNewcomers). */
    int index;
    boolean stepped;
    final Thread thread;
    final String name;
    String startedAt;
    String adoptedAt;
    /** Written under the session's lock; read without it by Sched.controlled. */
    volatile Status status;
    Op pending;
    String lastSite;
    /** The real Thread.start() returned (until then isAlive() says nothing). */
    boolean realStarted;
    final List<Hold> holds = new ArrayList<>();
    /** LockSupport's permit. */
    boolean permit;
    /** Spin protection: the last operation this thread passed and how often in a row. */
    Op.Kind lastKind;
    Object lastTarget;
    String lastName;
    int repeats;
    /** Spin protection for polls: sleeps and yields passed since another thread last ran. */
    int sleepsInTurn;
    /** Left control to wait for work in its ThreadPoolExecutor (getTask); its return is a hand-off's arrival. */
    boolean idle;
    /** A hand-off to an executor in progress (HandOffs): the threads alive before it, and its site. */
    java.util.Set<Thread> handOffBefore;
    String handOffSite;
    /** Started by an executor during a hand-off from rewritten code (Session.handedOff). */
    boolean handedOff;
    /** An interrupt that arrived while waiting in the scheduler, to hand back afterwards. */
    boolean interruptPending;
    /** The message of the DeadlockError this thread was picked for; it makes and throws the error
     *  itself, so the error's stack is always the victim's (whoever declared the deadlock). */
    String deadlock;
    /** Watchdog bookkeeping (System.nanoTime): since when it runs or is seen blocked. */
    long since;
    long blockedSince;
    /** Busy bookkeeping: the run it measures (its `from`), its CPU time then, and when the
     *  CPU time last moved (nanoseconds). */
    long busyFrom = -1;
    long cpuAtFrom;
    long cpuSeen;
    long cpuSeenAt;
    /** Set while the thread is inside the scheduler (its own lock waits are not stalls). */
    volatile boolean inScheduler;
    /** PCT's priority; Integer.MIN_VALUE until assigned. */
    int pctPriority = Integer.MIN_VALUE;

    ThreadState(Session session, int index, Thread thread, Status status) {
        this.session = session;
        this.index = index;
        this.thread = thread;
        this.name = thread.getName();
        this.status = status;
        this.since = System.nanoTime();
    }

    String ref() {
        return "thread#" + index;
    }

    void dropHold(Object target) {
        for (int i = holds.size() - 1; i >= 0; i--) {
            if (holds.get(i).target == target) {
                holds.remove(i);
                return;
            }
        }
    }
}
