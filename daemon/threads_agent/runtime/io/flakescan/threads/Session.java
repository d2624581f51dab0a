package io.flakescan.threads;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One controlled test (Control.begin to Control.end): the scheduler.
 *
 * Policy: exactly one controlled thread runs at a time (the holder). A controlled thread that
 * reaches a scheduling point announces its pending operation and gives up the run; the
 * scheduler then waits until every thread it knows of has announced (a thread just started
 * from rewritten code is ARRIVING until its first point), and lets the strategy choose among
 * the threads whose operation the model allows (Model.enabled). The chosen operation is applied
 * to the model and recorded as one step, under this object's lock, before the chosen thread
 * goes on. So the choice set at each step, and with it the schedule, follows from the seed.
 *
 * When nothing is enabled: failed lock attempts get one more try, then the timed operation
 * with the earliest deadline times out (the virtual clock jumps to it), then it is a deadlock.
 * Threads outside control (in a blocking JDK call, or stalled: Watchdog) are waited for, not
 * chosen; they make the record inexact.
 */
final class Session {
    static volatile Session active;
    /** The virtual time of finished sessions: rewritten code's clock never goes back. */
    static volatile long finishedVirtualMs;

    final Settings settings;
    final String testId;
    final Strategy strategy;
    final Record record = new Record();
    final Model model;
    final List<ThreadState> threads = new ArrayList<>();
    final Map<Thread, ThreadState> byThread = new HashMap<>();
    ThreadState holder;
    /** False once the session ended; `recording` false once max_steps were passed. */
    volatile boolean controlling = true;
    private boolean recording = true;
    /** Set at the step limit: control ends at the next decision where that breaks nothing (Ending.atLimit). */
    private boolean endAtLimit;
    /** Set by the first Ending.finish. */
    boolean finished;
    long stuckRetryEpoch = -1;
    /** When deciding found nothing enabled while threads were outside control (Watchdog's grace). */
    long stuckSince;
    /** Since when a thread waits for the running one (Watchdog: how long the running one kept the run). */
    long contendedSince;
    /** Tasks handed to a pool that has a thread free for them: a thread will arrive with each. */
    int expectedArrivals;
    long expectedSince;
    String deadlockJson;
    String recordJson;

    Session(Settings settings, String testId, Thread first) throws IOException {
        this.settings = settings;
        this.testId = testId;
        this.strategy = Strategy.of(settings);
        this.model = new Model(settings.virtualTime);
        ThreadState t0 = register(first, ThreadState.Status.RUNNING);
        t0.realStarted = true;
        holder = t0;
    }

    ThreadState register(Thread t, ThreadState.Status status) {
        ThreadState ts = new ThreadState(this, threads.size(), t, status);
        threads.add(ts);
        byThread.put(t, ts);
        return ts;
    }

    synchronized ThreadState stateOf(Thread t) {
        return byThread.get(t);
    }

    /** The calling thread's state, registering it at its first point in this session. */
    synchronized ThreadState adopt(Thread t, String site) {
        if (!controlling || Watchdog.excluded(t)) return null;
        ThreadState ts = byThread.get(t);
        if (ts == null) {
            ThreadState by = holder != null && holder.handOffBefore != null && !holder.handOffBefore.contains(t) ? holder : null;
            if (by != null) {
                HandOffs.register(this, t, by);
            } else {
                ts = register(t, ThreadState.Status.ARRIVING);
                ts.realStarted = true;
                ts.adoptedAt = site;
                arrived(ts, "came under control at its first point on its own time (started by code that is not rewritten)");
            }
            ts = byThread.get(t);
            if (holder != null && contendedSince == 0) contendedSince = System.nanoTime();
        }
        switch (ts.status) {
            case ENDED: case RELEASED: case ABANDONED: return null;
            default: return ts;
        }
    }

    /**
     * `me` announces `op` and waits to be chosen. Returns the operation it passed last (`op`, or
     * a wait's return), with the model already updated; null when control ended meanwhile (the
     * caller then does the real operation). Throws the DeadlockError this thread was picked for.
     */
    Op pass(ThreadState me, Op op) {
        me.inScheduler = true;
        try {
            synchronized (this) {
                if (!controlling || me.status == ThreadState.Status.RELEASED) return null;
                if (me.handOffBefore != null) HandOffs.ended(this, me);
                if (holder == me) holder = null;
                if (me.status == ThreadState.Status.OUTSIDE) {
                    model.lockEpoch++;
                    if (me.idle) arrived(me, "left its pool's idle wait on its own time");
                    me.idle = false;
                }
                me.pending = op;
                me.status = ThreadState.Status.WAITING;
                if (holder != null && contendedSince == 0) contendedSince = System.nanoTime();
                if (op.timeoutMs >= 0 && op.deadline < 0) op.deadline = model.virtualMs + op.timeoutMs;
                decide();
                boolean chosen = awaitTurn(me);
                Op done = me.pending;
                if (me.interruptPending && (!chosen || !done.interrupted)) Thread.currentThread().interrupt();
                me.interruptPending = false;
                return chosen ? done : null;
            }
        } finally {
            me.inScheduler = false;
        }
    }

    private boolean awaitTurn(ThreadState me) {
        while (true) {
            if (me.status == ThreadState.Status.RUNNING && holder == me) {
                String deadlock = me.deadlock;
                if (deadlock != null) {
                    me.deadlock = null;
                    throw new DeadlockError(deadlock);
                }
                return true;
            }
            if (me.status == ThreadState.Status.RELEASED) return false;
            try {
                wait();
            } catch (InterruptedException e) {
                me.interruptPending = true;
                if (me.status == ThreadState.Status.WAITING && me.pending.interruptible) {
                    me.pending.interrupted = true;
                    decide();
                }
            }
        }
    }

    /** Chooses the next step while nobody runs and every known thread has announced. */
    void decide() {
        while (controlling && holder == null) {
            if (endAtLimit && Ending.atLimit(this)) return;
            // Not a thread registered by a thread_start whose real start() has not returned yet: a
            // Thread subclass's own start() may pass points before calling super.start().
            // Indexed loops and lists sized at once: this runs at every point, and runner JVMs
            // compile with C1 only, which allocates every iterator.
            final int n = threads.size();
            for (int i = 0; i < n; i++) {
                ThreadState t = threads.get(i);
                if (t.status == ThreadState.Status.ARRIVING && t.realStarted) return;
            }
            if (expectedArrivals > 0) return;
            orderNewcomers();
            List<ThreadState> waiting = new ArrayList<>(n);
            List<ThreadState> candidates = new ArrayList<>(n);
            boolean outside = false;
            for (int i = 0; i < n; i++) {
                ThreadState t = threads.get(i);
                if (t.status == ThreadState.Status.OUTSIDE) outside = true;
                if (t.status != ThreadState.Status.WAITING) continue;
                waiting.add(t);
                if (model.enabled(t)) candidates.add(t);
            }
            if (candidates.isEmpty()) {
                if (outside && Deadlocks.lockCycle(this, waiting) != null) {
                    Deadlocks.declare(this, waiting, false);
                    return;
                }
                if (outside) {
                    if (stuckSince == 0) stuckSince = System.nanoTime();
                    return;
                }
                if (!unstick(waiting, false, false)) return;
                continue;
            }
            stuckSince = 0;
            run(choose(candidates), waiting);
        }
    }

    /**
     * Threads met at their first point (a pool's workers) are numbered in the order they were
     * created (thread ids), not in the order they happened to arrive: renumbered among
     * themselves before their first step.
     */
    private void orderNewcomers() {
        int count = 0;
        for (int i = 0; i < threads.size(); i++) {
            ThreadState t = threads.get(i);
            if ((t.adoptedAt != null || t.handedOff) && !t.stepped) count++;
        }
        if (count < 2) return;
        List<ThreadState> fresh = new ArrayList<>();
        for (ThreadState t : threads) if ((t.adoptedAt != null || t.handedOff) && !t.stepped) fresh.add(t);
        List<Integer> slots = new ArrayList<>();
        for (ThreadState t : fresh) slots.add(t.index);
        fresh.sort(java.util.Comparator.comparingLong(t -> t.thread.getId()));
        for (int i = 0; i < fresh.size(); i++) {
            ThreadState t = fresh.get(i);
            t.index = slots.get(i);
            threads.set(t.index, t);
        }
    }

    private ThreadState choose(List<ThreadState> candidates) {
        if (candidates.size() > 1) {
            for (ThreadState t : candidates) {
                if (t.repeats >= settings.spinLimit || t.sleepsInTurn >= settings.spinLimit) {
                    // A busy-wait, or a poll with a sleep in each pass: switch away from it,
                    // whatever the strategy would do.
                    t.repeats = 0;
                    t.sleepsInTurn = 0;
                    strategy.demote(t);
                    candidates.remove(t);
                    break;
                }
            }
        }
        if (!recording) return candidates.contains(lastRunner) ? lastRunner : candidates.get(0);
        together = living() > 1;
        return strategy.choose(candidates, record.total() + 1, together ? record.together() + 1 : 0);
    }

    private ThreadState lastRunner;
    /** The step being chosen is taken while more than one controlled thread lives. */
    private boolean together;

    /** Controlled threads that have not ended (nor been abandoned in a deadlock). */
    private int living() {
        int n = 0;
        for (int i = 0; i < threads.size(); i++) {
            ThreadState t = threads.get(i);
            if (t.status != ThreadState.Status.ENDED && t.status != ThreadState.Status.ABANDONED) n++;
        }
        return n;
    }

    private void run(ThreadState chosen, List<ThreadState> waiting) {
        Op op = chosen.pending;
        if (op.kind == Op.Kind.THREAD_START && op.target instanceof Thread) {
            ThreadState child = register((Thread) op.target, ThreadState.Status.ARRIVING);
            child.startedAt = op.site;
            op.target = child;
        }
        Op next = model.apply(chosen, op);
        if (next != null && chosen.interruptPending && next.interruptible) next.interrupted = true;  // interrupted before its wait
        step(chosen, op);
        strategy.passed(chosen, op, waiting);
        if (lastRunner != null && lastRunner != chosen) lastRunner.sleepsInTurn = 0;
        if (op.kind == Op.Kind.SLEEP || op.kind == Op.Kind.YIELD) chosen.sleepsInTurn++;
        lastRunner = chosen;
        if (next != null) {
            chosen.pending = next;
        } else {
            chosen.status = ThreadState.Status.RUNNING;
            chosen.since = System.nanoTime();
            contendedSince = 0;
            chosen.blockedSince = 0;
            holder = chosen;
        }
        if (chosen.thread != Thread.currentThread()) notifyAll();
    }

    private void step(ThreadState t, Op op) {
        t.stepped = true;
        boolean same = op.kind == t.lastKind && op.target == t.lastTarget
                && (op.name == null ? t.lastName == null : op.name.equals(t.lastName));
        t.repeats = same ? t.repeats + 1 : 1;
        t.lastKind = op.kind;
        t.lastTarget = op.target;
        t.lastName = op.name;
        t.lastSite = op.site;
        addStep(new Record.Step(t.index, op.kind.json, model.target(op), op.site), together);
    }

    /**
     * Records a step. The step limit counts only steps chosen while more than one controlled
     * thread lives (as PCT's change points do): a test that sets up a database on its own thread
     * for a million points still has its whole limit for the part where its threads race.
     */
    private void addStep(Record.Step s, boolean together) {
        if (!recording) {
            record.countUnrecorded();
            return;
        }
        record.add(s, together);
        if (record.together() >= settings.maxSteps) {
            recording = false;
            endAtLimit = true;
            record.inexact("the step limit (" + settings.maxSteps + ") was reached: the rest ran without recorded decisions");
        }
    }

    /** Nothing is enabled: see Stuck. */
    boolean unstick(List<ThreadState> waiting, boolean late, boolean outsideBlocked) {
        return Stuck.unstick(this, waiting, late, outsideBlocked);
    }

    /** A task was handed to a pool that has a thread free for it: deciding waits for that thread. */
    synchronized void expectArrival() {
        if (expectedArrivals++ == 0) expectedSince = System.nanoTime();
    }

    /** `me`, running, is about to hand a task to an executor; `before` are the threads alive now (HandOffs). */
    synchronized void handingOff(ThreadState me, String site, java.util.Set<Thread> before) {
        if (me.handOffBefore != null) HandOffs.ended(this, me);
        me.handOffBefore = before;
        me.handOffSite = site;
    }

    /** A thread met at its first point, or back from its pool's idle wait: the arrival a hand-off expected, if any. */
    private void arrived(ThreadState t, String otherwise) {
        if (expectedArrivals > 0) expectedArrivals--;
        else record.inexact("thread " + t.index + " (" + t.name + ") " + otherwise);
    }

    /** A hand-off whose thread did not come (Watchdog, after 1 s): decide without it. */
    void giveUpArrivals() {
        expectedArrivals = 0;
        record.inexact("a task handed to a pool did not begin within 1 s");
        decide();
    }

    /** `me` passed a blocking call (or a stall took it): it runs outside control from now on.
     *  A null reason: it went to wait for work in its pool (`idle`), which loses nothing. */
    synchronized void leave(ThreadState me, String reason) {
        if (!controlling) return;
        if (reason != null) record.inexact(reason);
        else me.idle = true;
        if (holder == me) holder = null;
        if (me.status == ThreadState.Status.RUNNING || me.status == ThreadState.Status.ARRIVING
                || me.status == ThreadState.Status.WAITING) me.status = ThreadState.Status.OUTSIDE;
        model.lockEpoch++;
        decide();
        notifyAll();
    }

    /**
     * A controlled thread was seen terminated: records its end and lets joiners go. The end of a
     * thread outside control (a pool worker let go while idle, then shut down) is no step: it
     * comes whenever the Watchdog happens to see it, so recording it would make one seed's
     * decisions differ between two runs.
     */
    void ended(ThreadState t) {
        if (holder == t) holder = null;
        boolean outside = t.status == ThreadState.Status.OUTSIDE;
        t.status = ThreadState.Status.ENDED;
        model.lockEpoch++;
        if (!outside) {
            String site = t.lastSite != null ? t.lastSite : t.startedAt != null ? t.startedAt : t.adoptedAt;
            addStep(new Record.Step(t.index, Op.Kind.THREAD_END.json, t.ref(), site), false);  // nobody chose it
            strategy.unchosen(t.index, record.total());
        }
        decide();
        notifyAll();
    }

    /** What Thread.getState() says of a controlled thread waiting in the model, or null: ask the JVM. */
    synchronized Thread.State modelledState(ThreadState t) {
        if (!controlling || t.status != ThreadState.Status.WAITING || t.pending == null) return null;
        Op op = t.pending;
        if (model.enabled(t)) return Thread.State.RUNNABLE;
        if (op.kind == Op.Kind.MONITOR_ENTER && !op.waitReturn) return Thread.State.BLOCKED;
        if (op.waitReturn && (op.notified || op.timedOut || op.interrupted)) return Thread.State.BLOCKED;
        return op.timeoutMs >= 0 ? Thread.State.TIMED_WAITING : Thread.State.WAITING;
    }

    synchronized long lockEpoch() {
        return model.lockEpoch;
    }

    synchronized void acquired(ThreadState me, Object lock, String site) {
        me.holds.add(new ThreadState.Hold(lock, site));
    }

    synchronized void realStarted(ThreadState child) {
        child.realStarted = true;
        child.since = System.nanoTime();
    }

    synchronized void startFailed(ThreadState child) {
        child.status = ThreadState.Status.ENDED;
        decide();
    }

    synchronized boolean owns(ThreadState me, Object monitor) {
        return model.owns(me, monitor);
    }

    /** Ends control and returns the record: see Ending. */
    String finish() {
        return Ending.finish(this);
    }
}
