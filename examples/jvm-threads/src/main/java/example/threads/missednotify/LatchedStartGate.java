package example.threads.missednotify;

/** Holds workers until the configuration is ready; the gate remembers that it is open. */
public class LatchedStartGate {
    private boolean open;

    public synchronized void open() {
        open = true;
        notifyAll();
    }

    public synchronized void awaitOpen() throws InterruptedException {
        while (!open) {
            wait();
        }
    }
}
