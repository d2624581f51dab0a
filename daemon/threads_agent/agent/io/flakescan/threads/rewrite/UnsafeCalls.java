package io.flakescan.threads.rewrite;

import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * Which calls on JDK objects that are not thread-safe become "call_read"/"call_write" steps
 * (docs/threads.md, "What is rewritten"): instance calls whose owner is a class or interface
 * directly in java.util (not java.util.concurrent, .function, .stream or any other
 * subpackage) other than the immutable and thread-safe ones below, java.lang.Iterable and
 * java.lang.StringBuilder. A read by its name (get*, contains*, size, iterator, ...); any other
 * method is a write. The runtime (io.flakescan.threads.Calls) then drops receivers that are
 * thread-safe after all (a ConcurrentHashMap behind a Map, a synchronized list).
 */
final class UnsafeCalls {
    private UnsafeCalls() {}

    /** java.util classes and interfaces that are immutable, thread-safe or not data structures. */
    private static final Set<String> NOT_DATA = Set.of("Optional", "OptionalInt", "OptionalLong", "OptionalDouble", "Objects",
            "UUID", "Locale", "Random", "SplittableRandom", "Currency", "Timer", "TimerTask", "ResourceBundle", "ServiceLoader",
            "Comparator", "Vector", "Stack", "Hashtable", "Properties", "EventObject", "Base64$Encoder", "Base64$Decoder",
            "Locale$Builder", "Scanner", "Formatter");
    private static final Set<String> READS = Set.of("size", "isEmpty", "iterator", "listIterator", "spliterator", "keySet", "values",
            "entrySet", "navigableKeySet", "descendingKeySet", "descendingMap", "descendingSet", "descendingIterator", "forEach",
            "forEachRemaining", "stream", "parallelStream", "toArray", "equals", "hashCode", "toString", "peek", "peekFirst",
            "peekLast", "element", "first", "last", "firstKey", "lastKey", "firstEntry", "lastEntry", "indexOf", "lastIndexOf",
            "subList", "subMap", "headMap", "tailMap", "subSet", "headSet", "tailSet", "comparator", "floor", "ceiling", "higher",
            "lower", "floorKey", "ceilingKey", "higherKey", "lowerKey", "floorEntry", "ceilingEntry", "higherEntry", "lowerEntry",
            "next", "previous", "nextIndex", "previousIndex", "nextElement", "length", "charAt", "codePointAt", "codePointBefore",
            "codePointCount", "substring", "subSequence", "capacity", "chars", "codePoints", "compareTo", "clone", "reversed");
    /** Not steps: asked before each next() of a loop, they would double its steps and tell nothing next() does not. */
    private static final Set<String> SILENT = Set.of("hasNext", "hasMoreElements", "hasPrevious");

    /** "call_read" or "call_write" for a call that is a step, else null. */
    static String op(MethodInsnNode call) {
        if (call.getOpcode() != Opcodes.INVOKEVIRTUAL && call.getOpcode() != Opcodes.INVOKEINTERFACE) return null;
        if (!unsafeOwner(call.owner) || SILENT.contains(call.name) || call.name.equals("<init>")) return null;
        return isRead(call.name) ? "call_read" : "call_write";
    }

    static boolean unsafeOwner(String owner) {
        if (owner.equals("java/lang/StringBuilder") || owner.equals("java/lang/Iterable")) return true;
        if (!owner.startsWith("java/util/")) return false;
        String simple = owner.substring("java/util/".length());
        return simple.indexOf('/') < 0 && !NOT_DATA.contains(simple);
    }

    static boolean isRead(String name) {
        return READS.contains(name) || name.startsWith("get") || name.startsWith("contains");
    }
}
