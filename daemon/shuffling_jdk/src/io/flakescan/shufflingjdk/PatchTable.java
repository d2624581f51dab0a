package io.flakescan.shufflingjdk;

import static io.flakescan.shufflingjdk.PatchPoint.Kind.REDIRECT_ENTRY;
import static io.flakescan.shufflingjdk.PatchPoint.Kind.WRAP_RETURN;
import static io.flakescan.shufflingjdk.PatchPoint.Operand.NONE;
import static io.flakescan.shufflingjdk.PatchPoint.Operand.THIS;
import static io.flakescan.shufflingjdk.PatchPoint.Operand.field;
import static io.flakescan.shufflingjdk.PatchPoint.Operand.outer;

import java.util.ArrayList;
import java.util.List;

import io.flakescan.shufflingjdk.PatchPoint.Operand;

/**
 * Every patched method of java.base, for JDK 17 (read from its sources: each entry point of an
 * unspecified order, chosen so that no call passes two patched points). Labels follow
 * "<Type>[.<view>] <operation>" for collections (operation: iteration, forEach, toArray,
 * spliterator, toString, keys, elements) and "<Type>.<method>[(<parameter>)]" for Class and
 * File. Paths covered through another entry (HashSet.iterator through HashMap.keySet,
 * Hashtable.toString through its entry set, PriorityBlockingQueue's iterator, toString and
 * spliterator through its toArray, Properties through ConcurrentHashMap, HashMap and Hashtable)
 * show the path in the records' "via". docs/shuffle.md lists what is left out and why.
 */
final class PatchTable {
    private static final String ITERATOR = "()Ljava/util/Iterator;";
    private static final String SPLITERATOR = "()Ljava/util/Spliterator;";
    private static final String ENUMERATION = "()Ljava/util/Enumeration;";
    private static final String FOR_EACH = "(Ljava/util/function/Consumer;)V";
    private static final String FOR_EACH_PAIR = "(Ljava/util/function/BiConsumer;)V";
    private static final String TO_ARRAY = "()[Ljava/lang/Object;";
    private static final String TO_ARRAY_INTO = "([Ljava/lang/Object;)[Ljava/lang/Object;";
    private static final String TO_STRING = "()Ljava/lang/String;";

    private static final String HASH_MAP = "java/util/HashMap";
    private static final String HASHTABLE = "java/util/Hashtable";
    private static final String IDENTITY = "java/util/IdentityHashMap";
    private static final String WEAK = "java/util/WeakHashMap";
    private static final String CHM = "java/util/concurrent/ConcurrentHashMap";
    private static final String PQ = "java/util/PriorityQueue";
    private static final String PBQ = "java/util/concurrent/PriorityBlockingQueue";

    private PatchTable() {}

    static List<PatchPoint> points() {
        List<PatchPoint> t = new ArrayList<>();
        hashMap(t);
        hashtable(t);
        identityHashMap(t);
        weakHashMap(t);
        concurrentHashMap(t);
        priorityQueue(t);
        priorityBlockingQueue(t);
        reflection(t);
        directoryListings(t);
        return t;
    }

    /** HashMap and HashSet (HashSet.iterator and toArray reach HashMap's keySet iterator and keysToArray). */
    private static void hashMap(List<PatchPoint> t) {
        mapViews(t, HASH_MAP, "HashMap", "KeySet", "Values", "EntrySet", true);
        wrap(t, HASH_MAP, "keysToArray", TO_ARRAY_INTO, THIS, "HashMap.keySet toArray", "array size");
        wrap(t, HASH_MAP, "valuesToArray", TO_ARRAY_INTO, THIS, "HashMap.values toArray", "array size");
        redirect(t, HASH_MAP, "forEach", FOR_EACH_PAIR, THIS, NONE, "HashMap forEach", "forEach pairs");
        wrap(t, "java/util/HashSet", "spliterator", SPLITERATOR, field("java/util/HashSet", "map", "L" + HASH_MAP + ";"),
             "HashSet spliterator", "spliterator keys");
    }

    /** Hashtable (its views' spliterators, toArray and toString go through these iterators). */
    private static void hashtable(List<PatchPoint> t) {
        wrap(t, HASHTABLE, "keys", ENUMERATION, THIS, "Hashtable keys", "enumeration keys");
        wrap(t, HASHTABLE, "elements", ENUMERATION, THIS, "Hashtable elements", "enumeration values");
        wrap(t, HASHTABLE + "$KeySet", "iterator", ITERATOR, outer(HASHTABLE + "$KeySet", HASHTABLE),
             "Hashtable.keySet iteration", "iterator keys");
        wrap(t, HASHTABLE + "$ValueCollection", "iterator", ITERATOR, outer(HASHTABLE + "$ValueCollection", HASHTABLE),
             "Hashtable.values iteration", "iterator values");
        wrap(t, HASHTABLE + "$EntrySet", "iterator", ITERATOR, outer(HASHTABLE + "$EntrySet", HASHTABLE),
             "Hashtable.entrySet iteration", "iterator entries");
        redirect(t, HASHTABLE, "forEach", FOR_EACH_PAIR, THIS, NONE, "Hashtable forEach", "forEach pairs");
    }

    /** IdentityHashMap (toArray() calls toArray(T[]); the views' forEach is Iterable's). */
    private static void identityHashMap(List<PatchPoint> t) {
        mapViews(t, IDENTITY, "IdentityHashMap", "KeySet", "Values", "EntrySet", false);
        for (String[] view : new String[][] {{"KeySet", "keySet"}, {"Values", "values"}, {"EntrySet", "entrySet"}}) {
            wrap(t, IDENTITY + "$" + view[0], "toArray", TO_ARRAY_INTO, outer(IDENTITY + "$" + view[0], IDENTITY),
                 "IdentityHashMap." + view[1] + " toArray", "array size");
    }
    redirect(t, IDENTITY, "forEach", FOR_EACH_PAIR, THIS, NONE, "IdentityHashMap forEach", "forEach pairs");
    }

    /** WeakHashMap (its views' toArray and forEach go through these iterators). */
    private static void weakHashMap(List<PatchPoint> t) {
        mapViews(t, WEAK, "WeakHashMap", "KeySet", "Values", "EntrySet", false);
        redirect(t, WEAK, "forEach", FOR_EACH_PAIR, THIS, NONE, "WeakHashMap forEach", "forEach pairs");
    }

    /** ConcurrentHashMap, newKeySet and Properties (backed by one); the views' toArray and toString iterate. */
    private static void concurrentHashMap(List<PatchPoint> t) {
        wrap(t, CHM, "keys", ENUMERATION, THIS, "ConcurrentHashMap keys", "enumeration keys");
        wrap(t, CHM, "elements", ENUMERATION, THIS, "ConcurrentHashMap elements", "enumeration values");
        Operand viewMap = field(CHM + "$CollectionView", "map", "L" + CHM + ";");
        String[][] chmViews = {{"KeySetView", "keySet", "keys"}, {"ValuesView", "values", "values"}, {"EntrySetView", "entrySet", "entries"}};
        for (String[] v : chmViews) {
            String view = CHM + "$" + v[0];
            String label = "ConcurrentHashMap." + v[1];
            wrap(t, view, "iterator", ITERATOR, viewMap, label + " iteration", "iterator " + v[2]);
            wrap(t, view, "spliterator", SPLITERATOR, viewMap, label + " spliterator", "spliterator " + v[2]);
            redirect(t, view, "forEach", FOR_EACH, viewMap, NONE, label + " forEach", "forEach " + v[2]);
    }
    redirect(t, CHM, "forEach", FOR_EACH_PAIR, THIS, NONE, "ConcurrentHashMap forEach", "forEach pairs");
    redirect(t, CHM, "toString", TO_STRING, THIS, NONE, "ConcurrentHashMap toString", "toString pairs");
    }

    /** PriorityQueue (toString is AbstractCollection's, over the iterator). */
    private static void priorityQueue(List<PatchPoint> t) {
        wrap(t, PQ, "iterator", ITERATOR, THIS, "PriorityQueue iteration", "iterator elements");
        wrap(t, PQ, "spliterator", SPLITERATOR, THIS, "PriorityQueue spliterator", "spliterator elements");
        wrap(t, PQ, "toArray", TO_ARRAY, THIS, "PriorityQueue toArray", "array");
        wrap(t, PQ, "toArray", TO_ARRAY_INTO, THIS, "PriorityQueue toArray(T[])", "array nonnull");
        redirect(t, PQ, "forEach", FOR_EACH, THIS, NONE, "PriorityQueue forEach", "forEach elements");
    }

    /** PriorityBlockingQueue: iterator, toString and spliterator are snapshots of toArray(). */
    private static void priorityBlockingQueue(List<PatchPoint> t) {
        wrap(t, PBQ, "toArray", TO_ARRAY, NONE, "PriorityBlockingQueue toArray", "array");
        wrap(t, PBQ, "toArray", TO_ARRAY_INTO, NONE, "PriorityBlockingQueue toArray(T[])", "array nonnull");
        redirect(t, PBQ, "forEach", FOR_EACH, THIS, field(PBQ, "lock", "Ljava/util/concurrent/locks/ReentrantLock;"),
                 "PriorityBlockingQueue forEach", "forEach elements");
    }

    /** Reflection: each returns a fresh copy, permuted in place. */
    private static void reflection(List<PatchPoint> t) {
        String[][] reflection = {
            {"getDeclaredMethods", "()[Ljava/lang/reflect/Method;"},
            {"getMethods", "()[Ljava/lang/reflect/Method;"},
            {"getDeclaredFields", "()[Ljava/lang/reflect/Field;"},
            {"getFields", "()[Ljava/lang/reflect/Field;"},
            {"getDeclaredConstructors", "()[Ljava/lang/reflect/Constructor;"},
            {"getConstructors", "()[Ljava/lang/reflect/Constructor;"},
            {"getAnnotations", "()[Ljava/lang/annotation/Annotation;"},
            {"getDeclaredAnnotations", "()[Ljava/lang/annotation/Annotation;"},
        };
        for (String[] m : reflection) {
            wrap(t, "java/lang/Class", m[0], m[1], NONE, "Class." + m[0], "array");
    }
    }

    /** Directory listings (filters see the plain order; the result is permuted). */
    private static void directoryListings(List<PatchPoint> t) {
        String[][] listings = {
            {"list", "()[Ljava/lang/String;", "File.list"},
            {"list", "(Ljava/io/FilenameFilter;)[Ljava/lang/String;", "File.list(FilenameFilter)"},
            {"listFiles", "()[Ljava/io/File;", "File.listFiles"},
            {"listFiles", "(Ljava/io/FilenameFilter;)[Ljava/io/File;", "File.listFiles(FilenameFilter)"},
            {"listFiles", "(Ljava/io/FileFilter;)[Ljava/io/File;", "File.listFiles(FileFilter)"},
        };
        for (String[] m : listings) {
            wrap(t, "java/io/File", m[0], m[1], NONE, m[2], "array");
    }
    }
    /** A map's three views: iterator and spliterator, and forEach when the views have their own loops. */
    private static void mapViews(List<PatchPoint> t, String map, String type, String keys, String values, String entries,
                                 boolean forEach) {
        String[][] views = {{keys, "keySet", "keys"}, {values, "values", "values"}, {entries, "entrySet", "entries"}};
        for (String[] v : views) {
            String view = map + "$" + v[0];
            Operand owner = outer(view, map);
            String label = type + "." + v[1];
            wrap(t, view, "iterator", ITERATOR, owner, label + " iteration", "iterator " + v[2]);
            wrap(t, view, "spliterator", SPLITERATOR, owner, label + " spliterator", "spliterator " + v[2]);
            if (forEach) {
                redirect(t, view, "forEach", FOR_EACH, owner, NONE, label + " forEach", "forEach " + v[2]);
            }
        }
    }

    private static void wrap(List<PatchPoint> t, String cls, String method, String desc, Operand owner, String api, String handler) {
        t.add(new PatchPoint(cls, method, desc, WRAP_RETURN, owner, NONE, api, handler));
    }

    private static void redirect(List<PatchPoint> t, String cls, String method, String desc, Operand owner, Operand aux,
                                 String api, String handler) {
        t.add(new PatchPoint(cls, method, desc, REDIRECT_ENTRY, owner, aux, api, handler));
    }
}
