package example.threads.deadlock;

/**
 * Moves items from one shelf to another under both shelves' locks, taken in argument order:
 * move(a, b) and move(b, a) at once can each hold one lock and wait for the other forever.
 */
public class Restocker {
    public void move(Shelf from, Shelf to, int n) {
        from.lock.lock(); // RACE: holds `from`'s lock ...
        try {
            to.lock.lock(); // RACE: ... and waits for `to`'s, which the opposite move holds
            try {
                from.add(-n);
                to.add(n);
            } finally {
                to.lock.unlock();
            }
        } finally {
            from.lock.unlock();
        }
    }
}
