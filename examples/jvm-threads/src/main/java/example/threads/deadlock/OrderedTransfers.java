package example.threads.deadlock;

/** Moves money between two accounts, taking the two monitors in one global order (by id). */
public class OrderedTransfers {
    public void transfer(Account from, Account to, long amount) {
        Account first = from.id() < to.id() ? from : to;
        Account second = first == from ? to : from;
        synchronized (first) {
            synchronized (second) {
                from.add(-amount);
                to.add(amount);
            }
        }
    }
}
