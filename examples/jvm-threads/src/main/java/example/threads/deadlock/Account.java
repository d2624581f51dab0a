package example.threads.deadlock;

/** A bank account; its monitor guards its balance. */
public class Account {
    private final int id;
    private long balance;

    public Account(int id, long balance) {
        this.id = id;
        this.balance = balance;
    }

    public int id() {
        return id;
    }

    public synchronized long balance() {
        return balance;
    }

    synchronized void add(long amount) {
        balance += amount;
    }
}
