package oldprobe;

/**
 * Two monitors taken in opposite orders by two threads (a lock-order deadlock under some
 * schedules). The test compiles it with javac --release 8 and patches a copy to class-file
 * version 49 (Java 5) to check that old class files are rewritten too (JaConTeBe J1). One class,
 * no lambda (invokedynamic needs version 51): the threads are instances of it.
 */
public final class OldLocks extends Thread {
    private static final Object A = new Object();
    private static final Object B = new Object();
    private static int count;

    private final boolean forward;

    private OldLocks(boolean forward) {
        this.forward = forward;
    }

    @Override
    public void run() {
        if (forward) ab();
        else ba();
    }

    static void ab() {
        synchronized (A) {
            count++;
            synchronized (B) {
                count++;
            }
        }
    }

    static void ba() {
        synchronized (B) {
            count++;
            synchronized (A) {
                count++;
            }
        }
    }

    public static void both() throws InterruptedException {
        Thread t1 = new OldLocks(true);
        Thread t2 = new OldLocks(false);
        t1.start();
        t2.start();
        t1.join();
        t2.join();
    }
}
