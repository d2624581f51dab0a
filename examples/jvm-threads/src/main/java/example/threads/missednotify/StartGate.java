package example.threads.missednotify;

/**
 * Holds workers until the configuration is ready. open() only notifies: a worker that reaches
 * awaitOpen() after the gate was opened waits for a notify that will never come.
 */
public class StartGate {
    public synchronized void open() {
        notifyAll(); // RACE: wakes only the workers already waiting
    }

    public synchronized void awaitOpen() throws InterruptedException {
        wait(); // RACE: no "is it open already?" before waiting
    }
}
