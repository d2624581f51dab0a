package io.flakescan.threads;

/**
 * Calls from rewritten code on a JDK object that is not thread-safe (a HashMap, an ArrayList,
 * an iterator, a StringBuilder): a "call_read" or "call_write" step on the receiver before the
 * real call, so that two threads' check-then-act on a map can interleave between the check and
 * the act. The rewriter (daemon/threads_agent/agent/.../CallTable.java) picks the calls by their
 * static owner and classifies them by method; here the receiver's class decides: calls on a
 * receiver of the project or a library (its own code is rewritten), of java.util.concurrent, or
 * a synchronized or immutable JDK collection are not steps. (An unmodifiable view is: the map
 * behind it may change.)
 */
final class Calls {
    private Calls() {}

    private static final ClassValue<Boolean> STEPPED = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            return unsafeJdkClass(c);
        }
    };

    static void point(Object receiver, String op, String site) {
        if (receiver == null || !STEPPED.get(receiver.getClass())) return;  // the real call throws the NullPointerException
        ThreadState me = Sched.controlled(site);
        if (me != null) me.session.pass(me, new Op(op.equals("call_read") ? Op.Kind.CALL_READ : Op.Kind.CALL_WRITE, receiver, null, site));
    }

    /** A class of the JDK whose instances other threads may not use at once without a lock of their own. */
    static boolean unsafeJdkClass(Class<?> c) {
        ClassLoader loader = c.getClassLoader();
        if (loader != null && loader != ClassLoader.getPlatformClassLoader()) return false;
        if (java.util.Vector.class.isAssignableFrom(c) || java.util.Hashtable.class.isAssignableFrom(c)) return false;
        String n = c.getName();
        if (n.startsWith("java.util.concurrent.")) return false;
        for (String safe : new String[] {"java.util.Collections$Synchronized",
                "java.util.Collections$Empty", "java.util.Collections$Singleton", "java.util.ImmutableCollections$"})
            if (n.startsWith(safe)) return false;
        return true;
    }
}
