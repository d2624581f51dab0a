package example.threads.missednotify;

/**
 * Hands one result from a producer thread to a consumer thread. The consumer waits for the
 * producer's notify with no flag to check first: a notify sent before it waits is lost.
 */
public class ResultSlot {
    private String value;

    public synchronized void publish(String v) {
        value = v;
        notify(); // RACE: wakes nobody when the consumer has not started waiting yet
    }

    public synchronized String take() throws InterruptedException {
        wait(); // RACE: waits for a notify that may already have been sent
        return value;
    }
}
