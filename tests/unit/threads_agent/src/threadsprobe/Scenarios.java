package threadsprobe;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

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

    static final Object first = new Object();
    static final Object second = new Object();

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

    /** A task on a pool, waited for with Future.get. */
    static void poolTask() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Counter c = new Counter();
            Future<?> f = pool.submit(() -> { c.increment(); c.increment(); });
            f.get();
            if (c.count != 2) throw new AssertionError("count " + c.count);
        } finally {
            pool.shutdown();
        }
    }

    static final class Flag {
        volatile boolean up;
        int seen;
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

    /** Two ReentrantLocks taken in opposite orders. */
    static void lockOrderLocks() throws InterruptedException {
        ReentrantLock left = new ReentrantLock();
        ReentrantLock right = new ReentrantLock();
        Thread a = new Thread(() -> { left.lock(); try { right.lock(); right.unlock(); } finally { left.unlock(); } });
        Thread b = new Thread(() -> { right.lock(); try { left.lock(); left.unlock(); } finally { right.unlock(); } });
        a.start();
        b.start();
        a.join();
        b.join();
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

    /** A Condition awaited for a flag another thread raises and signals. */
    static void conditionSignal() throws InterruptedException {
        ReentrantLock lock = new ReentrantLock();
        Condition ready = lock.newCondition();
        Flag f = new Flag();
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                while (!f.up) ready.awaitUninterruptibly();
                f.seen = 1;
            } finally {
                lock.unlock();
            }
        });
        waiter.start();
        lock.lock();
        try {
            f.up = true;
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        waiter.join();
        if (f.seen != 1) throw new AssertionError("not signalled");
    }

    /** Two pool tasks take two locks in opposite orders; the test waits for both futures. */
    static void poolDeadlock() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Object left = new Object();
        Object right = new Object();
        try {
            Future<?> a = pool.submit(() -> { synchronized (left) { synchronized (right) { Thread.yield(); } } });
            Future<?> b = pool.submit(() -> { synchronized (right) { synchronized (left) { Thread.yield(); } } });
            a.get();
            b.get();
        } finally {
            pool.shutdownNow();
        }
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

    /** A lock and a task whose overrides call super (which must stay a non-virtual call). */
    static final class CountingLock extends ReentrantLock {
        int locked;

        @Override
        public void lock() {
            super.lock();
            locked++;
        }
    }

    /** Keeps every lock method of ReentrantLock, as Guava's cache segments do: modelled. */
    static final class NamedLock extends ReentrantLock {
    }

    static final class LoggingTask extends FutureTask<Integer> {
        LoggingTask(java.util.concurrent.Callable<Integer> c) {
            super(c);
        }

        @Override
        public Integer get() throws InterruptedException, ExecutionException {
            return super.get();
        }
    }

    /**
     * Counters guarded by ReentrantLock subclasses (one overrides lock() and calls super, one keeps
     * the JDK's methods), the result read through a FutureTask subclass whose get() calls super.
     * Never fails: the overrides run, each once.
     */
    static void subclassedLockAndTask() throws Exception {
        CountingLock counting = new CountingLock();
        NamedLock named = new NamedLock();
        Counter byCounting = new Counter();
        Counter byNamed = new Counter();
        LoggingTask task = new LoggingTask(() -> {
            counting.lock();
            try {
                byCounting.increment();
            } finally {
                counting.unlock();
            }
            named.lock();
            try {
                byNamed.increment();
                return byNamed.count;
            } finally {
                named.unlock();
            }
        });
        new Thread(task).start();
        counting.lock();
        try {
            byCounting.increment();
        } finally {
            counting.unlock();
        }
        named.lock();
        try {
            byNamed.increment();
        } finally {
            named.unlock();
        }
        task.get();
        if (byCounting.count != 2 || byNamed.count != 2 || counting.locked != 2)
            throw new AssertionError("counts " + byCounting.count + " and " + byNamed.count + ", locked " + counting.locked);
    }

    /** Iterating a synchronized list inside synchronized (list) while another thread adds: never fails. */
    static void synchronizedListIteration() throws InterruptedException {
        List<Integer> list = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 3; i++) list.add(i);
        Counter sum = new Counter();
        Thread adder = new Thread(() -> {
            sum.seen++;  // a scheduling point: the add may come while the list is being iterated
            list.add(3);
        });
        adder.start();
        synchronized (list) {
            for (int x : list) sum.count += x;
        }
        adder.join();
        if (list.size() != 4) throw new AssertionError("size " + list.size());
    }

    /** wait and notify on a monitor the JDK could lock too (a list), with a flag: never fails or hangs. */
    static void waitOnJdkObject() throws InterruptedException {
        List<Integer> box = new ArrayList<>();
        Thread sender = new Thread(() -> {
            synchronized (box) {
                box.add(1);
                box.notifyAll();
            }
        });
        sender.start();
        synchronized (box) {
            while (box.isEmpty()) box.wait();
        }
        sender.join();
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
            case "synchronized_counter": synchronizedCounter(); break;
            case "lock_order": lockOrder(); break;
            case "missed_notify": missedNotify(); break;
            case "sleep_as_wait": sleepAsWait(); break;
            case "pool_task": poolTask(); break;
            case "busy_wait": busyWait(); break;
            case "atomic_counter": atomicCounter(); break;
            case "lock_order_locks": lockOrderLocks(); break;
            case "timed_wait": timedWait(); break;
            case "park_unpark": parkUnpark(); break;
            case "condition_signal": conditionSignal(); break;
            case "pool_deadlock": poolDeadlock(); break;
            case "interrupt_wait": interruptWait(); break;
            case "subclassed_lock_and_task": subclassedLockAndTask(); break;
            case "synchronized_list_iteration": synchronizedListIteration(); break;
            case "wait_on_jdk_object": waitOnJdkObject(); break;
            case "wait_until_blocked": waitUntilBlocked(); break;
            default: throw new IllegalArgumentException("no scenario " + name);
        }
    }
}
