package java.util;

/**
 * An IdentityHashMap entry served by a shuffled entry-set iterator. The JDK's own entries are
 * positions in the iterator's copy of the table, valid only while that iterator walks in order;
 * this one names its key and reads and writes through the map, with the JDK entry's identity
 * semantics (equals by ==, hashCode from identity hash codes).
 */
final class FlakescanIdentityEntry implements Map.Entry<Object, Object> {
    private final IdentityHashMap<Object, Object> map;
    private final Object key;
    private Object value;  // the last value seen, for when the mapping is gone

    FlakescanIdentityEntry(IdentityHashMap<Object, Object> map, Object key, Object value) {
        this.map = map;
        this.key = key;
        this.value = value;
    }

    @Override
    public Object getKey() {
        return key;
    }

    @Override
    public Object getValue() {
        if (map.containsKey(key)) {
            value = map.get(key);
        }
        return value;
    }

    @Override
    public Object setValue(Object newValue) {
        if (!map.containsKey(key)) {
            throw new IllegalStateException("Entry was removed");
        }
        Object old = map.put(key, newValue);  // an existing key: not a structural change
        value = newValue;
        return old;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Map.Entry<?, ?> e && e.getKey() == key && e.getValue() == getValue();
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(key) ^ System.identityHashCode(getValue());
    }

    @Override
    public String toString() {
        return key + "=" + getValue();
    }
}
