package java.util;

/**
 * A shuffled iterator (or Enumeration) over a permuted snapshot. As the JDK's iterators of these
 * maps and queues: next() is fail-fast where the family allows it (FlakescanSnapshot), remove()
 * removes exactly the element last returned and may be called once per next(). As an
 * Enumeration (Hashtable and ConcurrentHashMap keys() and elements()) it does not check for
 * modifications and does not remove, like theirs.
 */
final class FlakescanIterator implements Iterator<Object>, Enumeration<Object> {
    private final FlakescanSnapshot snapshot;
    private final boolean enumeration;
    private int cursor;
    private int last = -1;

    FlakescanIterator(FlakescanSnapshot snapshot, boolean enumeration) {
        this.snapshot = snapshot;
        this.enumeration = enumeration;
    }

    @Override
    public boolean hasNext() {
        return cursor < snapshot.size();
    }

    @Override
    public Object next() {
        snapshot.checkForComodification();
        return advance();
    }

    private Object advance() {
        if (cursor >= snapshot.size()) {
            throw new NoSuchElementException();
        }
        last = cursor++;
        return snapshot.element(last);
    }

    @Override
    public void remove() {
        if (enumeration) {
            throw new UnsupportedOperationException();
        }
        if (last < 0) {
            throw new IllegalStateException();
        }
        snapshot.checkForComodification();
        snapshot.remove(last);
        last = -1;
    }

    @Override
    public boolean hasMoreElements() {
        return hasNext();
    }

    @Override
    public Object nextElement() {
        return advance();
    }
}
