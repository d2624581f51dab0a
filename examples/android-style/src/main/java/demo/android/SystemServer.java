package demo.android;

import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;

/**
 * Stand-in for the system process that drives activity lifecycles: launching an activity
 * happens on its binder thread, which delivers onCreate and then onResume to the app's main
 * thread as posted messages (async events), a little work apart. Close it after the test.
 */
public final class SystemServer implements AutoCloseable {
    private final HandlerThread binder = new HandlerThread("binder:system");
    private final Handler binderHandler;
    private final Handler main = new Handler(Looper.getMainLooper());
    private final long transactionMicros;

    public SystemServer(long transactionMicros) {
        this.transactionMicros = transactionMicros;
        binder.setDaemon(true);
        binder.start();
        binderHandler = new Handler(binder.getLooper());
    }

    /** Any thread: starts launching {@code activity}; returns at once. */
    public void launch(PlayerActivity activity) {
        binderHandler.post(() -> {
            Latency.work(transactionMicros);
            main.post(activity::performCreate);
            Latency.work(transactionMicros);
            main.post(activity::performResume);
        });
    }

    /**
     * Stops the binder thread after its pending work. Does not wait for it: the system
     * process is not the test's to join (and a debugger may be holding its thread).
     */
    @Override
    public void close() {
        binder.quitSafely();
    }
}
