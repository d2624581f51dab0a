package example.threads.deadlock;

/** Moves items between two shelves, taking the two locks in one global order (by shelf number). */
public class OrderedRestocker {
    public void move(Shelf from, Shelf to, int n) {
        Shelf first = from.number() < to.number() ? from : to;
        Shelf second = first == from ? to : from;
        first.lock.lock();
        try {
            second.lock.lock();
            try {
                from.add(-n);
                to.add(n);
            } finally {
                second.lock.unlock();
            }
        } finally {
            first.lock.unlock();
        }
    }
}
