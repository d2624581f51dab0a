package demo.android;

import android.os.Handler;
import android.os.Looper;
import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;

/**
 * A photo gallery: {@link #open()} decodes the first thumbnail on a decoder thread and posts
 * it to the main thread (an async event). Decoding a thumbnail is quick, so the thumbnail is
 * nearly always on screen long before a test looks. Main-thread fields.
 */
public final class Gallery {
    private final Handler main = new Handler(Looper.getMainLooper());
    private final CountingIdlingResource decodes = new CountingIdlingResource("thumbnail-decodes");
    private final long decodeMicros;
    private final long layoutMicros;
    private int visibleThumbnails;
    private String title = "";

    /**
     * @param decodeMicros how long decoding a thumbnail takes (decoder thread)
     * @param layoutMicros how long laying out the title takes (main thread)
     */
    public Gallery(long decodeMicros, long layoutMicros) {
        this.decodeMicros = decodeMicros;
        this.layoutMicros = layoutMicros;
    }

    /** Main thread: starts decoding the first thumbnail. */
    public void open() {
        decodes.increment();
        new Thread(this::decodeFirst, "thumbnail-decoder").start();
    }

    private void decodeFirst() {
        Latency.work(decodeMicros);
        main.post(this::thumbnailDecoded);
    }

    private void thumbnailDecoded() {
        visibleThumbnails++;
        decodes.decrement();
    }

    /** Main thread. */
    public void showTitle(String text) {
        Latency.work(layoutMicros);
        title = text;
    }

    /** Main thread. */
    public String title() {
        return title;
    }

    /** Main thread. */
    public int visibleThumbnails() {
        return visibleThumbnails;
    }

    public IdlingResource idlingResource() {
        return decodes;
    }
}
