package threadsprobe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The scenarios (see Scenarios) that go through java.util.concurrent and other JDK classes:
 * pools and futures, ReentrantLock and its subclasses, Condition, a synchronized list.
 */
final class LibraryScenarios {
    private LibraryScenarios() {}

    /** A task on a pool, waited for with Future.get. */
    static void poolTask() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Scenarios.Counter c = new Scenarios.Counter();
            Future<?> f = pool.submit(() -> { c.increment(); c.increment(); });
            f.get();
            if (c.count != 2) throw new AssertionError("count " + c.count);
        } finally {
            pool.shutdown();
        }
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

    /** A Condition awaited for a flag another thread raises and signals. */
    static void conditionSignal() throws InterruptedException {
        ReentrantLock lock = new ReentrantLock();
        Condition ready = lock.newCondition();
        Scenarios.Flag f = new Scenarios.Flag();
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
        Scenarios.Counter byCounting = new Scenarios.Counter();
        Scenarios.Counter byNamed = new Scenarios.Counter();
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
        Scenarios.Counter sum = new Scenarios.Counter();
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

    /** A project subclass of a JDK class whose own methods lock this (JaConTeBe J3). */
    static final class MyList extends java.util.Vector<Integer> {
        private static final long serialVersionUID = 1L;
    }

    /**
     * One thread reads a Vector subclass by index inside synchronized (list), the other calls
     * list.remove(0), which the JDK synchronizes on list: correct, so it never fails.
     */
    static void vectorSubclassMonitor() throws InterruptedException {
        MyList list = new MyList();
        for (int i = 0; i < 4; i++) list.add(i);
        Scenarios.Counter sum = new Scenarios.Counter();
        Thread remover = new Thread(() -> {
            sum.seen++;  // a scheduling point: the remove may come while the list is being read
            list.remove(0);
        });
        remover.start();
        synchronized (list) {
            int n = list.size();
            for (int i = 0; i < n; i++) {
                sum.seen++;  // a scheduling point between size() and each get(i)
                sum.count += list.get(i);
            }
        }
        remover.join();
        if (list.size() != 3) throw new AssertionError("size " + list.size());
    }

    /**
     * oldprobe.OldLocks from the directory in -Dthreadsprobe.old (a class file the test compiled
     * and may have patched to an old version) in a loader of its own, so it is rewritten as it
     * loads: its both() takes two monitors in opposite orders in two threads.
     */
    static void oldClassFile() throws Exception {
        java.net.URL dir = new java.io.File(System.getProperty("threadsprobe.old")).toURI().toURL();
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {dir}, LibraryScenarios.class.getClassLoader())) {
            Class<?> c = Class.forName("oldprobe.OldLocks", true, loader);
            try {
                c.getMethod("both").invoke(null);
            } catch (java.lang.reflect.InvocationTargetException e) {
                if (e.getCause() instanceof Exception) throw (Exception) e.getCause();
                throw (Error) e.getCause();
            }
        }
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

    /** CompletableFuture.supplyAsync on a pool, joined: the worker's steps are waited for (exact). */
    static void completableFuture() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            Scenarios.Counter c = new Scenarios.Counter();
            CompletableFuture<Integer> f = CompletableFuture.supplyAsync(() -> {
                c.increment();
                return c.count;
            }, pool);
            c.increment();
            f.join();
            if (c.count != 2) throw new AssertionError("lost update: count " + c.count);
        } finally {
            pool.shutdown();
        }
    }
}
