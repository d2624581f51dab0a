package example.threads.lostupdate;

/** Units of one product on hand. take() reads and writes the level in two steps, unguarded. */
public class StockLevel {
    private int available;

    public StockLevel(int available) {
        this.available = available;
    }

    public void take(int units) {
        int left = available - units; // RACE: reads the level another picker may be changing
        available = left; // RACE: writes back over the other picker's update
    }

    public int available() {
        return available;
    }
}
