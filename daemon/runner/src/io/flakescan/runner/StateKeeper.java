package io.flakescan.runner;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the daemon's technique {@code repair} calls through the debugger (JDWP invocations on
 * the thread stopped right before a test): it never runs on its own. Nothing here decides an
 * outcome; it only keeps and reads state for the daemon:
 * <ul>
 *   <li>{@link #load}: initialises a class by name, so its static fields can be read before
 *       the test that would first use it;</li>
 *   <li>{@link #copy}: a deep copy of a value, kept alive here, to be written back into a
 *       static field later in the same JVM (the field's value before the polluter ran). All
 *       copies made in one JVM share one identity map: two fields that refer to one object
 *       (a registry and the listener it holds) are written back referring to one copy;</li>
 *   <li>{@link #classBytes}: a class file's bytes as the JVM's class loaders see it (classes
 *       in jars and the JDK's own), for the daemon's class-file parser;</li>
 *   <li>{@link #serialize} and {@link #deserialize}: a value carried from one JVM to another
 *       as Base64 text (Java serialisation), for a state that only another order sets up.</li>
 * </ul>
 */
public final class StateKeeper {
    private static final List<Object> KEPT = new ArrayList<>();
    /** Original -> copy, for every copy made in this JVM (repair copies at one stop only). */
    private static final Map<Object, Object> COPIES = new IdentityHashMap<>();

    private StateKeeper() {}

    /** Called by the runner at start: a debugger only sees classes that were prepared. */
    static void prepare() {}

    public static Class<?> load(String name) throws ClassNotFoundException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) loader = ClassLoader.getSystemClassLoader();
        return Class.forName(name, true, loader);
    }

    public static byte[] classBytes(String name) {
        String resource = name.replace('.', '/') + ".class";
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) loader = ClassLoader.getSystemClassLoader();
        try (InputStream in = open(loader, resource)) {
            if (in == null) return null;
            byte[] bytes = in.readAllBytes();
            synchronized (KEPT) {
                KEPT.add(bytes);  // not collected before the daemon has read it
            }
            return bytes;
        } catch (Exception e) {
            return null;
        }
    }

    private static InputStream open(ClassLoader loader, String resource) {
        InputStream in = loader.getResourceAsStream(resource);
        if (in == null) in = Object.class.getResourceAsStream("/" + resource);  // the JDK's own (jrt:)
        return in;
    }

    public static Object copy(Object value) {
        Object copied;
        synchronized (COPIES) {
            copied = deepCopy(value, COPIES);
        }
        synchronized (KEPT) {
            KEPT.add(copied);  // an immutable value is its own copy: kept alive too
        }
        return copied;
    }

    /** Base64 of the value's Java serialisation; null when it cannot be serialised. */
    public static String serialize(Object value) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            }
            String text = java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
            synchronized (KEPT) {
                KEPT.add(text);  // not collected before the daemon has read it
            }
            return text;
        } catch (Exception e) {
            return null;
        }
    }

    /** The value {@link #serialize} wrote, kept alive here; throws when it cannot be read. */
    public static Object deserialize(String base64) throws Exception {
        byte[] bytes = java.util.Base64.getDecoder().decode(base64);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            Object value = in.readObject();
            synchronized (KEPT) {
                KEPT.add(value);
            }
            return value;
        }
    }

    private static Object deepCopy(Object value, Map<Object, Object> done) {
        if (value == null || immutable(value)) return value;
        Object seen = done.get(value);
        if (seen != null) return seen;
        Class<?> type = value.getClass();
        if (type.isArray()) {
            int length = Array.getLength(value);
            Object out = Array.newInstance(type.getComponentType(), length);
            done.put(value, out);
            for (int i = 0; i < length; i++) Array.set(out, i, deepCopy(Array.get(value, i), done));
            return out;
        }
        Object structural = copyCollection(value, done);
        if (structural != null) return structural;
        if (value instanceof Serializable) {
            Object out = serialized(value);
            if (out != null) {
                done.put(value, out);
                return out;
            }
        }
        if (type.getModule().isNamed()) return value;  // a JDK object that cannot be copied: shared
        Object out = allocate(type);
        if (out == null) return value;
        done.put(value, out);
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                try {
                    f.setAccessible(true);
                    f.set(out, deepCopy(f.get(value), done));
                } catch (Exception e) {
                    // a field we cannot write keeps its default; the daemon's restore check
                    // (the victim passes or not) judges the copy
                }
            }
        }
        return out;
    }

    /**
     * A JDK collection of a plain kind (no comparator, no hidden state) copied element by
     * element, so elements that other fields also refer to keep one copy (serialisation would
     * copy them apart); null for any other value.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object copyCollection(Object value, Map<Object, Object> done) {
        Class<?> type = value.getClass();
        if (!PLAIN_COLLECTIONS.contains(type.getName())) return null;
        try {
            Object out = type.getDeclaredConstructor().newInstance();
            done.put(value, out);
            if (value instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet())
                    ((Map) out).put(deepCopy(e.getKey(), done), deepCopy(e.getValue(), done));
            } else {
                for (Object e : (java.util.Collection<?>) value) ((java.util.Collection) out).add(deepCopy(e, done));
            }
            return out;
        } catch (Exception e) {
            done.remove(value);
            return null;
        }
    }

    private static final java.util.Set<String> PLAIN_COLLECTIONS = java.util.Set.of(
            "java.util.HashMap", "java.util.LinkedHashMap", "java.util.IdentityHashMap", "java.util.Hashtable",
            "java.util.concurrent.ConcurrentHashMap", "java.util.ArrayList", "java.util.LinkedList", "java.util.Vector",
            "java.util.HashSet", "java.util.LinkedHashSet", "java.util.concurrent.CopyOnWriteArrayList",
            "java.util.concurrent.CopyOnWriteArraySet", "java.util.ArrayDeque");

    private static boolean immutable(Object value) {
        return value instanceof String || value instanceof Number && value.getClass().getModule().isNamed()
                || value instanceof Boolean || value instanceof Character || value instanceof Enum
                || value instanceof Class;
    }

    private static Object serialized(Object value) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                return in.readObject();
            }
        } catch (Exception e) {
            return null;
        }
    }

    private static Object allocate(Class<?> type) {
        try {
            Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            f.setAccessible(true);
            Object unsafe = f.get(null);
            return unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
        } catch (Exception e) {
            return null;
        }
    }
}
