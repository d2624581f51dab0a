package example.repair.app;

/** Hands out ticket numbers from a static counter (pair f). Nothing sets the counter back:
 *  {@link #next} is its only writer, and it only counts up. */
public final class TicketCounter {
    private static int issued;

    private TicketCounter() {}

    public static int next() { return ++issued; }
}
