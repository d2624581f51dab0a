package demo.android;

import android.os.Handler;
import android.os.HandlerThread;
import android.os.Looper;

/**
 * Stand-in for the input method (on a device, another process): a looper thread "ime" that
 * lays out the soft keyboard when asked and tells the app on its main thread when the
 * keyboard is shown (an async event). Close it after the test.
 */
public final class InputMethod implements AutoCloseable {
    private final HandlerThread thread = new HandlerThread("ime");
    private final Handler ime;
    private final Handler main = new Handler(Looper.getMainLooper());
    private final long layoutMicros;

    public InputMethod(long layoutMicros) {
        this.layoutMicros = layoutMicros;
        thread.setDaemon(true);
        thread.start();
        ime = new Handler(thread.getLooper());
    }

    /** Any thread: shows the keyboard; {@code shown} runs on the main thread afterwards. */
    public void showSoftInput(Runnable shown) {
        ime.post(() -> {
            Latency.work(layoutMicros);
            main.post(shown);
        });
    }

    /**
     * Stops the input method after its pending work. Does not wait for its thread: like the
     * real IME process, it is not the test's to join (and a debugger may be holding it).
     */
    @Override
    public void close() {
        thread.quitSafely();
    }
}
