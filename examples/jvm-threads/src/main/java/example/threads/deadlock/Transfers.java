package example.threads.deadlock;

/**
 * Moves money between two accounts, holding both monitors. Takes them in argument order, so
 * transfer(a, b) and transfer(b, a) at once can each hold one and wait for the other forever.
 */
public class Transfers {
    public void transfer(Account from, Account to, long amount) {
        synchronized (from) { // RACE: holds `from` ...
            synchronized (to) { // RACE: ... and waits for `to`, which the opposite transfer holds
                from.add(-amount);
                to.add(amount);
            }
        }
    }
}
