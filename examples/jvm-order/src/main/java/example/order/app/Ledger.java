package example.order.app;

import java.util.ArrayList;
import java.util.List;

/** An append-only ledger kept in a static list: nothing resets it between tests. */
public final class Ledger {
    private static final List<String> ENTRIES = new ArrayList<>();
    private static int opened;

    private Ledger() {}

    public static void record(String entry) { ENTRIES.add(entry); }

    public static List<String> entries() { return new ArrayList<>(ENTRIES); }

    public static int open() { return ++opened; }
}
