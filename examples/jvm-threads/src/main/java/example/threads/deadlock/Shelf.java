package example.threads.deadlock;

import java.util.concurrent.locks.ReentrantLock;

/** A warehouse shelf; its lock guards its item count. */
public class Shelf {
    final ReentrantLock lock = new ReentrantLock();
    private final int number;
    private int items;

    public Shelf(int number, int items) {
        this.number = number;
        this.items = items;
    }

    public int number() {
        return number;
    }

    public int items() {
        lock.lock();
        try {
            return items;
        } finally {
            lock.unlock();
        }
    }

    void add(int n) {
        items += n;
    }
}
