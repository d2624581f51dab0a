package example.layouts.app;

/** Order numbers from a static counter that starts at 1 in every JVM and is never reset. */
public final class OrderNumbers {
    private static int last;

    private OrderNumbers() {}

    public static synchronized int next() { return ++last; }
}
