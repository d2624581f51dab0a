package example.threads.missednotify;

/** Hands one result from a producer thread to a consumer thread; the consumer waits in a loop on the value. */
public class GuardedResultSlot {
    private String value;

    public synchronized void publish(String v) {
        value = v;
        notifyAll();
    }

    public synchronized String take() throws InterruptedException {
        while (value == null) {
            wait();
        }
        return value;
    }
}
