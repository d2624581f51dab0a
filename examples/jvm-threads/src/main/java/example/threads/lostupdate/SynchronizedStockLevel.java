package example.threads.lostupdate;

/** Units of one product on hand; take() holds the level's monitor from the read to the write. */
public class SynchronizedStockLevel {
    private int available;

    public SynchronizedStockLevel(int available) {
        this.available = available;
    }

    public synchronized void take(int units) {
        int left = available - units;
        available = left;
    }

    public synchronized int available() {
        return available;
    }
}
