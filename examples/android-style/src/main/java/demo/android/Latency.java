package demo.android;

/**
 * Stands in for the time real work takes (a network round trip, decoding an image, the IME
 * laying out a keyboard): the calling thread stays busy for a fixed number of microseconds.
 * Busy rather than sleeping, because sleeps on Linux last at least ~60 us more than asked and
 * the examples need work on the scale of one main-thread round trip. No randomness: whether
 * a flaky example fails depends only on how the threads happen to be scheduled.
 */
public final class Latency {
    private Latency() {
    }

    public static void work(long micros) {
        long end = System.nanoTime() + micros * 1_000L;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
