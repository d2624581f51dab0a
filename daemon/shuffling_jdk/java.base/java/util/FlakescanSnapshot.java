package java.util;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.PriorityBlockingQueue;

/**
 * The elements of one view of a map or queue, taken at once and then permuted: what a shuffled
 * iterator, spliterator or forEach serves. It holds the family knowledge: how to read the
 * elements without going through a shuffled path, how to remove the one last served exactly as
 * the JDK's iterator does, and how to read the modification count for fail-fast checks.
 *
 * <p>Map slots are the map's real entries (HashMap nodes, Hashtable and WeakHashMap entries,
 * ConcurrentHashMap's write-through entries), so {@code setValue} writes through; an
 * IdentityHashMap's entries are tied to its iterator's cursor, so it gets
 * {@link FlakescanIdentityEntry} instead. The keys are also held here: that keeps a
 * WeakHashMap's keys alive while they are served, as the JDK's iterator does.
 *
 * <p>Fail-fast: HashMap, IdentityHashMap, WeakHashMap and PriorityQueue count modifications in a
 * field java.util can read, so a change not made through the shuffled iterator throws
 * ConcurrentModificationException as the JDK does. Hashtable's count is private to it and
 * ConcurrentHashMap has none (weakly consistent): their shuffled iterators do not check.
 */
final class FlakescanSnapshot {
    static final int KEYS = 0;
    static final int VALUES = 1;
    static final int ENTRIES = 2;
    static final int ELEMENTS = 3;

    private static final int HASH_MAP = 0;
    private static final int IDENTITY = 1;
    private static final int WEAK = 2;
    private static final int TABLE = 3;
    private static final int CONCURRENT = 4;
    private static final int QUEUE = 5;
    private static final int BLOCKING_QUEUE = 6;

    private final Object source;
    private final int family;
    private final int view;
    private Object[] slots = new Object[8];
    private Object[] keys = new Object[8];
    private int size;
    private int expectedModCount;

    private FlakescanSnapshot(Object source, int family, int view) {
        this.source = source;
        this.family = family;
        this.view = view;
    }

    /** The family of a source, or -1 for anything that must keep its order (LinkedHashMap first of all). */
    private static int familyOf(Object source) {
        if (source instanceof LinkedHashMap) {
            return -1;
        }
        if (source instanceof HashMap) {
            return HASH_MAP;
        }
        if (source instanceof IdentityHashMap) {
            return IDENTITY;
        }
        if (source instanceof WeakHashMap) {
            return WEAK;
        }
        if (source instanceof Hashtable) {
            return TABLE;
        }
        if (source instanceof ConcurrentHashMap) {
            return CONCURRENT;
        }
        if (source instanceof PriorityQueue) {
            return QUEUE;
        }
        if (source instanceof PriorityBlockingQueue) {
            return BLOCKING_QUEUE;
        }
        return -1;
    }

    /** The number of elements of a source as its own size() sees it; -1 for a source not shuffled. */
    static int sizeOf(Object source) {
        switch (familyOf(source)) {
            case HASH_MAP:
                return ((HashMap<?, ?>) source).size;
            case IDENTITY:
                return ((IdentityHashMap<?, ?>) source).size;
            case WEAK:
                return ((WeakHashMap<?, ?>) source).size();
            case TABLE:
                return ((Hashtable<?, ?>) source).size();
            case CONCURRENT:
                return ((ConcurrentHashMap<?, ?>) source).size();
            case QUEUE:
                return ((PriorityQueue<?>) source).size;
            case BLOCKING_QUEUE:
                return ((PriorityBlockingQueue<?>) source).size();
            default:
                return -1;
        }
    }

    /**
     * The elements of source's view in the JDK's own order; null for a source not shuffled.
     * Call under the guard: the generic path iterates the map's entry set.
     */
    static FlakescanSnapshot take(Object source, int view) {
        int family = familyOf(source);
        if (family < 0) {
            return null;
        }
        FlakescanSnapshot s = new FlakescanSnapshot(source, family, view);
        s.expectedModCount = s.modCount();
        switch (family) {
            case HASH_MAP:
                s.addHashMap((HashMap<?, ?>) source);
                break;
            case IDENTITY:
                s.addIdentityHashMap(identityMap(source));
                break;
            case QUEUE:
                PriorityQueue<?> queue = (PriorityQueue<?>) source;
                for (int i = 0; i < queue.size; i++) {
                    s.add(queue.queue[i], null);
                }
                break;
            case BLOCKING_QUEUE:
                for (Object e : ((PriorityBlockingQueue<?>) source).toArray()) {
                    s.add(e, null);
                }
                break;
            default:  // WeakHashMap, Hashtable, ConcurrentHashMap: their entry iterator, plain here
                for (Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) source).entrySet().iterator(); it.hasNext(); ) {
                    Map.Entry<?, ?> e = it.next();
                    s.add(e, e.getKey());
                }
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static IdentityHashMap<Object, Object> identityMap(Object source) {
        return (IdentityHashMap<Object, Object>) source;
    }

    private void addHashMap(HashMap<?, ?> map) {
        HashMap.Node<?, ?>[] table = map.table;
        if (map.size == 0 || table == null) {
            return;
        }
        for (HashMap.Node<?, ?> e : table) {
            for (; e != null; e = e.next) {
                add(e, e.key);
            }
        }
    }

    private void addIdentityHashMap(IdentityHashMap<Object, Object> map) {
        Object[] table = map.table;
        for (int i = 0; i < table.length; i += 2) {
            Object k = table[i];
            if (k != null) {
                Object key = IdentityHashMap.unmaskNull(k);
                add(new FlakescanIdentityEntry(map, key, table[i + 1]), key);
            }
        }
    }

    private void add(Object slot, Object key) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
            keys = Arrays.copyOf(keys, size * 2);
        }
        slots[size] = slot;
        keys[size] = key;
        size++;
    }

    int size() {
        return size;
    }

    /** Serves slot order[i] at position i. */
    void permute(int[] order) {
        Object[] s = new Object[size];
        Object[] k = new Object[size];
        for (int i = 0; i < size; i++) {
            s[i] = slots[order[i]];
            k[i] = keys[order[i]];
        }
        slots = s;
        keys = k;
    }

    /** What the view serves at position i; values are read when served, as the JDK's iterators do. */
    Object element(int i) {
        switch (view) {
            case KEYS:
                return keys[i];
            case VALUES:
                return value(i);
            default:
                return slots[i];
        }
    }

    Object key(int i) {
        return keys[i];
    }

    Object value(int i) {
        return ((Map.Entry<?, ?>) slots[i]).getValue();
    }

    /** Removes the mapping or element served at position i, the way the JDK's own iterator does. */
    void remove(int i) {
        switch (family) {
            case HASH_MAP:
                HashMap.Node<?, ?> node = (HashMap.Node<?, ?>) slots[i];
                ((HashMap<?, ?>) source).removeNode(node.hash, node.key, null, false, false);
                break;
            case QUEUE:
                ((PriorityQueue<?>) source).removeEq(slots[i]);  // by identity, like PriorityQueue's iterator
                break;
            case BLOCKING_QUEUE:
                throw new UnsupportedOperationException();  // never served by our iterators (its own iterates toArray)
            default:
                ((Map<?, ?>) source).remove(keys[i]);
        }
        expectedModCount = modCount();
    }

    /** The source's modification count where java.util can read it; 0 where it cannot. */
    private int modCount() {
        switch (family) {
            case HASH_MAP:
                return ((HashMap<?, ?>) source).modCount;
            case IDENTITY:
                return ((IdentityHashMap<?, ?>) source).modCount;
            case WEAK:
                return ((WeakHashMap<?, ?>) source).modCount;
            case QUEUE:
                return ((PriorityQueue<?>) source).modCount;
            default:
                return 0;
        }
    }

    void checkForComodification() {
        if (modCount() != expectedModCount) {
            throw new ConcurrentModificationException();
        }
    }

    /** IdentityHashMap's and WeakHashMap's own forEach loops check after every element; the others at the end. */
    boolean checksEachStep() {
        return family == IDENTITY || family == WEAK;
    }
}
