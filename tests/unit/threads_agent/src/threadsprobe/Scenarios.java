package threadsprobe;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Small concurrent programs with a known bug (and a correct twin), each run once per schedule
 * by Probe. Each throws when the schedule exposed its bug. These classes are rewritten by the
 * agent (package threadsprobe is not excluded).
 */
final class Scenarios {
    private Scenarios() {}

    static final class Counter {
        int count;
        int seen;

        void increment() {
            count++;
        }

        synchronized void incrementSafely() {
            count++;
        }
    }

    /** count++ from two threads: a lost update under some schedules. */
    static void lostUpdate() throws InterruptedException {
        Counter c = new Counter();
        Thread a = new Thread(() -> { c.increment(); c.increment(); });
        Thread b = new Thread(() -> { c.increment(); c.increment(); });
        a.start();
        b.start();
        a.join();
        b.join();
        if (c.count != 4) throw new AssertionError("lost update: count " + c.count + ", expected 4");
    }

    static int setupWork;

    /**
     * A long set-up on the test's own thread (as a database created before the test's threads
     * start), then the lost update: the step limit must be left for the race.
     */
    static void longSetupThenRace() throws InterruptedException {
        for (int i = 0; i < 3000; i++) setupWork++;
        lostUpdate();
    }

    /** The correct twin: a synchronized increment never loses one. */
    static void synchronizedCounter() throws InterruptedException {
        Counter c = new Counter();
        Thread a = new Thread(() -> { c.incrementSafely(); c.incrementSafely(); });
        Thread b = new Thread(() -> { c.incrementSafely(); c.incrementSafely(); });
        a.start();
        b.start();
        a.join();
        b.join();
        if (c.count != 4) throw new AssertionError("count " + c.count + ", expected 4");
    }

    /**
     * Two threads that each pass 20,000 synchronized increments (about 60,000 points in all): far
     * past a small step limit, after which control ends; the count must still be exact, so the
     * monitor's exclusion outlives the end of control.
     */
    static void longSynchronizedCounter() throws InterruptedException {
        Counter c = new Counter();
        Runnable work = () -> { for (int i = 0; i < 20_000; i++) c.incrementSafely(); };
        Thread a = new Thread(work);
        Thread b = new Thread(work);
        a.start();
        b.start();
        a.join();
        b.join();
        if (c.count != 40_000) throw new AssertionError("count " + c.count + ", expected 40000");
    }

    /** Two locks taken in opposite orders. */
    static void lockOrder() throws InterruptedException {
        Object left = new Object();
        Object right = new Object();
        Thread a = new Thread(() -> { synchronized (left) { synchronized (right) { Thread.yield(); } } });
        Thread b = new Thread(() -> { synchronized (right) { synchronized (left) { Thread.yield(); } } });
        a.start();
        b.start();
        a.join();
        b.join();
    }

    static final class Mailbox {
        boolean sent;
    }

    /** A notify that may come before the wait it was meant for (the wait does not check a flag). */
    static void missedNotify() throws InterruptedException {
        Mailbox box = new Mailbox();
        Thread sender = new Thread(() -> {
            synchronized (box) {
                box.sent = true;
                box.notify();
            }
        });
        sender.start();
        synchronized (box) {
            box.wait();
        }
        sender.join();
    }

    static final class Result {
        int value;
    }

    /** A sleep used as a wait for another thread's result. */
    static void sleepAsWait() throws InterruptedException {
        Result r = new Result();
        Thread worker = new Thread(() -> r.value = 42);
        worker.start();
        Thread.sleep(100);
        if (r.value != 42) throw new AssertionError("the result was not there after the sleep");
        worker.join();
    }

    static final class Flag {
        volatile boolean up;
        int seen;
    }

    static final class Feed {
        volatile boolean ready;
        int polls;
        int ticks;
    }

    /**
     * A reader that polls with a sleep between polls, as a data reader thread does, until
     * another thread sets the flag: each pass has several different steps, so it is no spin
     * of one operation, yet a high priority would keep the reader running for ever.
     */
    static void sleepPoll() throws InterruptedException {
        Feed f = new Feed();
        Thread poller = new Thread(() -> {
            try {
                while (!f.ready) {
                    f.polls++;
                    f.ticks++;
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread setter = new Thread(() -> f.ready = true);
        poller.start();
        setter.start();
        poller.join();
        setter.join();
    }

    /**
     * A join of a thread the session does not know (a Timer's, started inside the JDK), found
     * the way a harness finds leftover threads: the join runs uncontrolled.
     */
    static void joinUnknownThread() throws InterruptedException {
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        java.util.Timer timer = new java.util.Timer("probe-timer");
        Thread helper = new Thread(() -> { });
        helper.start();
        Thread timerThread = null;
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (!before.contains(t) && t.getName().equals("probe-timer")) timerThread = t;
        if (timerThread == null) throw new IllegalStateException("the Timer's thread was not found");
        timer.cancel();
        timerThread.join();
        helper.join();
    }

    /**
     * Pool tasks that interrupt themselves and then wait on their own Thread object's monitor
     * (the wait ends at once with InterruptedException), while another thread shuts the pool
     * down: a task holds its Thread's monitor while it waits in the scheduler.
     */
    static void ownThreadMonitor() throws InterruptedException {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(
                0, 8, 0L, java.util.concurrent.TimeUnit.MILLISECONDS, new java.util.concurrent.LinkedBlockingQueue<>());
        for (int i = 0; i < 3; i++) {
            pool.submit(() -> {
                Thread.currentThread().interrupt();
                synchronized (Thread.currentThread()) {
                    try {
                        Thread.currentThread().wait();
                    } catch (InterruptedException expected) {
                        // the interrupt came first
                    }
                }
            });
        }
        Thread closer = new Thread(pool::shutdown);
        closer.start();
        closer.join();
        if (!pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) throw new AssertionError("the pool did not end");
    }

    /** A busy-wait on a volatile flag that another thread sets. */
    static void busyWait() throws InterruptedException {
        Flag f = new Flag();
        Thread spinner = new Thread(() -> {
            while (!f.up) {
                // spin
            }
            f.seen = 1;
        });
        spinner.start();
        f.up = true;
        spinner.join();
        if (f.seen != 1) throw new AssertionError("the spinner did not see the flag");
    }

    /** An atomic counter from two threads (never fails; its steps are "atomic"). */
    static void atomicCounter() throws InterruptedException {
        AtomicInteger n = new AtomicInteger();
        Thread a = new Thread(() -> n.incrementAndGet());
        a.start();
        n.incrementAndGet();
        a.join();
        if (n.get() != 2) throw new AssertionError("count " + n.get());
    }

    /** A timed wait nobody notifies: it times out on the virtual clock. */
    static void timedWait() throws InterruptedException {
        Mailbox box = new Mailbox();
        long before = System.currentTimeMillis();
        synchronized (box) {
            box.wait(50);
        }
        if (System.currentTimeMillis() - before < 50) throw new AssertionError("the wait did not last 50 ms on the test's clock");
    }

    /** park until a flag is up, unparked by the thread that raises it (permit semantics). */
    static void parkUnpark() throws InterruptedException {
        Flag f = new Flag();
        Thread parked = new Thread(() -> {
            while (!f.up) LockSupport.park();
            f.seen = 1;
        });
        parked.start();
        f.up = true;
        LockSupport.unpark(parked);
        parked.join();
        if (f.seen != 1) throw new AssertionError("not unparked");
    }

    /** A waiting thread interrupted by the test: it must see the interrupt, whenever it comes. */
    static void interruptWait() throws InterruptedException {
        Mailbox box = new Mailbox();
        Flag f = new Flag();
        Thread waiter = new Thread(() -> {
            synchronized (box) {
                try {
                    while (!box.sent) box.wait();
                } catch (InterruptedException e) {
                    f.seen = 1;
                }
            }
        });
        waiter.start();
        waiter.interrupt();
        waiter.join();
        if (f.seen != 1) throw new AssertionError("the interrupt was lost");
    }

    /**
     * A test that waits until another thread is blocked on a monitor it holds, and checks it
     * holds it (Thread.getState, Thread.holdsLock): never fails, never spins forever.
     */
    static void waitUntilBlocked() throws InterruptedException {
        Object lock = new Object();
        Counter c = new Counter();
        Thread t = new Thread(() -> {
            synchronized (lock) {
                c.increment();
            }
        });
        synchronized (lock) {
            if (!Thread.holdsLock(lock)) throw new AssertionError("holdsLock says no inside synchronized");
            t.start();
            while (t.getState() != Thread.State.BLOCKED) Thread.yield();
        }
        t.join();
        if (c.count != 1) throw new AssertionError("count " + c.count);
    }

    static void run(String name) throws Exception {
        switch (name) {
            case "lost_update": lostUpdate(); break;
            case "long_setup_then_race": longSetupThenRace(); break;
            case "synchronized_counter": synchronizedCounter(); break;
            case "long_synchronized_counter": longSynchronizedCounter(); break;
            case "lock_order": lockOrder(); break;
            case "missed_notify": missedNotify(); break;
            case "sleep_as_wait": sleepAsWait(); break;
            case "pool_task": LibraryScenarios.poolTask(); break;
            case "busy_wait": busyWait(); break;
            case "sleep_poll": sleepPoll(); break;
            case "own_thread_monitor": ownThreadMonitor(); break;
            case "join_unknown_thread": joinUnknownThread(); break;
            case "atomic_counter": atomicCounter(); break;
            case "lock_order_locks": LibraryScenarios.lockOrderLocks(); break;
            case "timed_wait": timedWait(); break;
            case "park_unpark": parkUnpark(); break;
            case "condition_signal": LibraryScenarios.conditionSignal(); break;
            case "pool_deadlock": LibraryScenarios.poolDeadlock(); break;
            case "interrupt_wait": interruptWait(); break;
            case "subclassed_lock_and_task": LibraryScenarios.subclassedLockAndTask(); break;
            case "synchronized_list_iteration": LibraryScenarios.synchronizedListIteration(); break;
            case "wait_on_jdk_object": LibraryScenarios.waitOnJdkObject(); break;
            case "vector_subclass_monitor": LibraryScenarios.vectorSubclassMonitor(); break;
            case "old_class_file": LibraryScenarios.oldClassFile(); break;
            case "wait_until_blocked": waitUntilBlocked(); break;
            case "completable_future": LibraryScenarios.completableFuture(); break;
            case "check_then_act": CollectionScenarios.checkThenAct(); break;
            case "check_then_act_synchronized": CollectionScenarios.checkThenActSynchronized(); break;
            case "check_then_act_concurrent": CollectionScenarios.checkThenActConcurrent(); break;
            case "confined_locals": CollectionScenarios.confinedLocals(); break;
            case "timed_join_deadlock": CollectionScenarios.timedJoinDeadlock(); break;
            case "single_thread_executor": CollectionScenarios.singleThreadExecutor(); break;
            case "await_termination": CollectionScenarios.awaitTermination(); break;
            case "slow_jdk_work": StallScenarios.slowJdkWork(); break;
            case "native_wait": StallScenarios.nativeWait(); break;
            case "excluded_prefix": StallScenarios.excludedPrefix(); break;
            default: throw new IllegalArgumentException("no scenario " + name);
        }
    }
}
