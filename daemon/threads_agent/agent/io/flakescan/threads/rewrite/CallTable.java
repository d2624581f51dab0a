package io.flakescan.threads.rewrite;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * Which calls in rewritten code become scheduling points, as data: a call is replaced by a
 * static call into the scheduler runtime (REPLACE: same arguments, the receiver first, the
 * site last), preceded by a point that leaves control for a call that may block (BLOCKING),
 * preceded by a point on its receiver (BEFORE: atomics, CountDownLatch.countDown,
 * Condition.signal), preceded by a hand-off of its last argument, an executor
 * (HAND_OFF_ARGUMENT: CompletableFuture.supplyAsync/runAsync), or replaced by the
 * virtual clock (CLOCK), or preceded by a read or write step on a receiver that is not
 * thread-safe (UNSAFE_CALL: UnsafeCalls). docs/threads.md lists what is modelled and what is not.
 */
final class CallTable {
    enum Action { REPLACE, BLOCKING, BEFORE, CLOCK, HAND_OFF_ARGUMENT, UNSAFE_CALL }

    static final class Rule {
        final Action action;
        /** REPLACE/CLOCK: the Sched method; BLOCKING: the call's name; BEFORE, UNSAFE_CALL: the op. */
        final String target;
        /** REPLACE: the receiver's descriptor (non-static calls). */
        final String receiver;

        Rule(Action action, String target, String receiver) {
            this.action = action;
            this.target = target;
            this.receiver = receiver;
        }
    }

    private static final String THREAD = "java/lang/Thread";
    private static final String LOCK = "java/util/concurrent/locks/Lock";
    private static final String LOCK_DESC = "L" + LOCK + ";";
    private static final Set<String> LOCKS = Set.of("java/util/concurrent/locks/Lock", "java/util/concurrent/locks/ReentrantLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock", "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock");
    private static final Set<String> CONDITIONS = Set.of("java/util/concurrent/locks/Condition",
            "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject",
            "java/util/concurrent/locks/AbstractQueuedLongSynchronizer$ConditionObject");
    /** Where execute/submit may hand a task to a ThreadPoolExecutor's worker (Sched.handOff). */
    private static final Set<String> HAND_OFF = Set.of("java/util/concurrent/Executor", "java/util/concurrent/ExecutorService",
            "java/util/concurrent/AbstractExecutorService", "java/util/concurrent/ThreadPoolExecutor");
    /** Static calls and calls on final JDK classes: "owner.name+desc". */
    private static final Map<String, Rule> EXACT = new HashMap<>();
    /** owner -> the names of its calls that may block (a name ending in "/T": only with a TimeUnit). */
    private static final Map<String, Set<String>> BLOCKING = new HashMap<>();

    static {
        replace("java/lang/Thread.sleep(J)V", "sleep", null);
        replace("java/lang/Thread.sleep(JI)V", "sleep", null);
        replace("java/lang/Thread.yield()V", "yield", null);
        replace("java/lang/Thread.holdsLock(Ljava/lang/Object;)Z", "holdsLock", null);
        replace("java/lang/Thread.onSpinWait()V", "onSpinWait", null);
        replace("java/util/concurrent/TimeUnit.sleep(J)V", "sleep", "Ljava/util/concurrent/TimeUnit;");
        String ls = "java/util/concurrent/locks/LockSupport.";
        for (String d : new String[] {"park()V", "park(Ljava/lang/Object;)V"}) replace(ls + d, "park", null);
        for (String d : new String[] {"parkNanos(J)V", "parkNanos(Ljava/lang/Object;J)V"}) replace(ls + d, "parkNanos", null);
        for (String d : new String[] {"parkUntil(J)V", "parkUntil(Ljava/lang/Object;J)V"}) replace(ls + d, "parkUntil", null);
        replace(ls + "unpark(Ljava/lang/Thread;)V", "unpark", null);
        String latch = "java/util/concurrent/CountDownLatch.";
        replace(latch + "await()V", "await", "Ljava/util/concurrent/CountDownLatch;");
        replace(latch + "await(JLjava/util/concurrent/TimeUnit;)Z", "await", "Ljava/util/concurrent/CountDownLatch;");
        EXACT.put(latch + "countDown()V", new Rule(Action.BEFORE, "atomic", null));
        replace("java/util/concurrent/CompletableFuture.join()Ljava/lang/Object;", "joinFuture", "Ljava/util/concurrent/CompletableFuture;");
        for (String o : new String[] {"Future", "FutureTask", "RunnableFuture", "ScheduledFuture", "RunnableScheduledFuture",
                "CompletableFuture"}) {
            replace("java/util/concurrent/" + o + ".get()Ljava/lang/Object;", "get", "Ljava/util/concurrent/Future;");
            replace("java/util/concurrent/" + o + ".get(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;", "get",
                    "Ljava/util/concurrent/Future;");
        }
        for (String o : new String[] {"ExecutorService", "ScheduledExecutorService", "AbstractExecutorService", "ThreadPoolExecutor",
                "ScheduledThreadPoolExecutor"})
            replace("java/util/concurrent/" + o + ".awaitTermination(JLjava/util/concurrent/TimeUnit;)Z", "awaitTermination",
                    "Ljava/util/concurrent/ExecutorService;");
        String cf = "java/util/concurrent/CompletableFuture.";
        Rule async = new Rule(Action.HAND_OFF_ARGUMENT, "hand_off", null);
        EXACT.put(cf + "supplyAsync(Ljava/util/function/Supplier;Ljava/util/concurrent/Executor;)Ljava/util/concurrent/CompletableFuture;", async);
        EXACT.put(cf + "runAsync(Ljava/lang/Runnable;Ljava/util/concurrent/Executor;)Ljava/util/concurrent/CompletableFuture;", async);
        EXACT.put("java/lang/System.currentTimeMillis()J", new Rule(Action.CLOCK, "currentTimeMillis", null));
        EXACT.put("java/lang/System.nanoTime()J", new Rule(Action.CLOCK, "nanoTime", null));
        String cc = "java/util/concurrent/";
        Set<String> futures = Set.of("get", "join");
        for (String o : new String[] {"Future", "FutureTask", "CompletableFuture", "ForkJoinTask", "RecursiveTask", "RecursiveAction",
                "ScheduledFuture", "RunnableFuture", "CountedCompleter"}) BLOCKING.put(cc + o, futures);
        BLOCKING.put(cc + "CyclicBarrier", Set.of("await"));
        BLOCKING.put(cc + "Semaphore", Set.of("acquire", "acquireUninterruptibly", "tryAcquire/T"));
        Set<String> queue = Set.of("take", "put", "poll/T", "offer/T", "takeFirst", "takeLast", "putFirst", "putLast",
                "pollFirst/T", "pollLast/T", "offerFirst/T", "offerLast/T", "transfer", "tryTransfer/T");
        for (String o : new String[] {"BlockingQueue", "BlockingDeque", "TransferQueue", "ArrayBlockingQueue", "LinkedBlockingQueue",
                "LinkedBlockingDeque", "PriorityBlockingQueue", "SynchronousQueue", "DelayQueue", "LinkedTransferQueue"})
            BLOCKING.put(cc + o, queue);
        Set<String> executor = Set.of("awaitTermination", "invokeAll", "invokeAny", "close");
        for (String o : new String[] {"ExecutorService", "ScheduledExecutorService", "AbstractExecutorService", "ThreadPoolExecutor",
                "ScheduledThreadPoolExecutor", "ForkJoinPool"}) BLOCKING.put(cc + o, executor);
        BLOCKING.put(cc + "CompletionService", Set.of("take", "poll/T"));
        BLOCKING.put(cc + "ExecutorCompletionService", Set.of("take", "poll/T"));
        BLOCKING.put(cc + "Phaser", Set.of("awaitAdvance", "awaitAdvanceInterruptibly", "arriveAndAwaitAdvance"));
        BLOCKING.put(cc + "Exchanger", Set.of("exchange"));
        BLOCKING.put("java/lang/Process", Set.of("waitFor"));
        for (String c : CONDITIONS) BLOCKING.put(c, Set.of("await", "awaitNanos", "awaitUninterruptibly", "awaitUntil"));
    }

    private CallTable() {}

    private static void replace(String key, String method, String receiver) {
        EXACT.put(key, new Rule(Action.REPLACE, method, receiver));
    }

    /** The rule for a call instruction, or null when it stays as it is. */
    static Rule lookup(MethodInsnNode call, Hierarchy hierarchy) {
        // super.get(), super.lock(), ... inside an override: replacing them with a call that
        // dispatches virtually would call the override again.
        if (call.getOpcode() == Opcodes.INVOKESPECIAL) return null;
        Rule exact = EXACT.get(call.owner + "." + call.name + call.desc);
        if (exact != null) return exact;
        if (call.getOpcode() == Opcodes.INVOKEVIRTUAL) {
            Rule objectRule = objectMethod(call);
            if (objectRule != null) return objectRule;
        }
        // Any Lock: the scheduler only ever calls tryLock() and unlock() on it (ParkAndLocks).
        if (isLockCall(call) && (LOCKS.contains(call.owner) || hierarchy.implementsInterface(call.owner, LOCK)))
            return new Rule(Action.REPLACE, call.name, LOCK_DESC);
        if (CONDITIONS.contains(call.owner) && call.desc.equals("()V")) {
            if (call.name.equals("signal")) return new Rule(Action.BEFORE, "notify", null);
            if (call.name.equals("signalAll")) return new Rule(Action.BEFORE, "notify_all", null);
        }
        Set<String> blocking = BLOCKING.get(call.owner);
        if (blocking != null && call.getOpcode() != Opcodes.INVOKESTATIC) {
            boolean timed = call.desc.contains("Ljava/util/concurrent/TimeUnit;");
            if (blocking.contains(call.name) || timed && blocking.contains(call.name + "/T"))
                return new Rule(Action.BLOCKING, call.owner.replace('/', '.') + "." + call.name, null);
        }
        if (HAND_OFF.contains(call.owner) && (call.name.equals("execute") || call.name.equals("submit")))
            return new Rule(Action.BEFORE, "hand_off", null);
        if (call.owner.startsWith("java/util/concurrent/atomic/") && call.getOpcode() == Opcodes.INVOKEVIRTUAL)
            return new Rule(Action.BEFORE, "atomic", null);
        if (call.getOpcode() == Opcodes.INVOKEVIRTUAL && isThreadCall(call) && hierarchy.extendsClass(call.owner, THREAD))
            return new Rule(Action.REPLACE, call.name, "L" + THREAD + ";");
        String unsafe = UnsafeCalls.op(call);
        return unsafe == null ? null : new Rule(Action.UNSAFE_CALL, unsafe, null);
    }

    private static boolean isLockCall(MethodInsnNode call) {
        if (call.getOpcode() == Opcodes.INVOKESTATIC) return false;
        switch (call.name + call.desc) {
            case "lock()V": case "lockInterruptibly()V": case "tryLock()Z": case "unlock()V":
            case "tryLock(JLjava/util/concurrent/TimeUnit;)Z":
                return true;
            default: return false;
        }
    }

    /** wait and notify are final in Object: whatever the owner, these descriptors are them. */
    private static Rule objectMethod(MethodInsnNode call) {
        switch (call.name + call.desc) {
            case "wait()V": case "wait(J)V": case "wait(JI)V": case "notify()V": case "notifyAll()V":
                return new Rule(Action.REPLACE, call.name, "Ljava/lang/Object;");
            default: return null;
        }
    }

    private static boolean isThreadCall(MethodInsnNode call) {
        switch (call.name + call.desc) {
            case "start()V": case "join()V": case "join(J)V": case "join(JI)V": case "interrupt()V":
            case "getState()Ljava/lang/Thread$State;":
                return true;
            default: return false;
        }
    }

    /** The Sched method's descriptor for a REPLACE rule: receiver, the call's arguments, the site. */
    static String replacementDesc(MethodInsnNode call, Rule rule) {
        StringBuilder d = new StringBuilder("(");
        if (rule.receiver != null && call.getOpcode() != Opcodes.INVOKESTATIC) d.append(rule.receiver);
        for (Type t : Type.getArgumentTypes(call.desc)) d.append(t.getDescriptor());
        d.append("Ljava/lang/String;)").append(Type.getReturnType(call.desc).getDescriptor());
        return d.toString();
    }
}
