package example.order.app;

/** Settings loaded once per process; tests that read them without loading them are brittle. */
public final class Settings {
    private static String currency;

    private Settings() {}

    public static void load() { currency = "EUR"; }

    public static String currency() {
        if (currency == null) throw new IllegalStateException("settings not loaded");
        return currency;
    }
}
