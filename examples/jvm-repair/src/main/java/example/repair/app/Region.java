package example.repair.app;

/** Pair h: a setting no one sets by default; the app reads it. */
public final class Region {
    private static String current;

    private Region() {}

    public static void select(String region) {
        current = region;
    }

    public static String current() {
        return current;
    }

    public static String currencyOf() {
        return "eu".equals(current) ? "EUR" : "unknown";
    }
}
