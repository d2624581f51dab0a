package demo.android;

import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;
import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;
import java.util.ArrayList;
import java.util.List;

/**
 * An app start with a splash screen. {@link #onCreate()} sets up the app's libraries on an
 * "app-init" thread, which then keeps the splash up a little longer: it posts "hide splash"
 * (H) to the main thread with {@code postDelayed}. {@link #loadFeed()} loads the home feed on a
 * "feed-loader" thread, which posts "feed loaded" (L) with no delay. Hiding the splash
 * inflates the home layout with an empty list; L fills the list of the layout inflated at
 * that moment. The app silently expects the splash to be gone before the feed comes (the
 * splash delay is short, the feed slow): when L, posted later, overtakes H, posted earlier
 * with a longer delay, the feed goes into the splash's layout and is thrown away with it.
 * With {@code bindOnInflate} the feed is kept in a field and bound when the home layout is
 * inflated (the fix: H and L give the same screen in either order). Main-thread fields.
 */
public final class LaunchActivity {
    static final List<String> FEED = List.of("Espresso", "Flat white", "Cortado");

    private final Handler main = new Handler(Looper.getMainLooper());
    private final CountingIdlingResource work = new CountingIdlingResource("launch-work");
    private final long initMicros;
    private final long splashMillis;
    private final long feedMillis;
    private final boolean bindOnInflate;
    private boolean splashShown = true;
    private List<String> feed;
    // The list of the layout on screen: the splash layout's at first.
    private List<String> listView = new ArrayList<>();

    /**
     * @param initMicros how long setting up the libraries takes (app-init thread)
     * @param splashMillis how much longer the splash stays up after that (the delay of H)
     * @param feedMillis how long loading the feed takes (feed-loader thread)
     * @param bindOnInflate the fix: the home layout binds a feed that came early
     */
    public LaunchActivity(long initMicros, long splashMillis, long feedMillis,
            boolean bindOnInflate) {
        this.initMicros = initMicros;
        this.splashMillis = splashMillis;
        this.feedMillis = feedMillis;
        this.bindOnInflate = bindOnInflate;
    }

    /** Main thread: shows the splash and sets up the libraries in the background. */
    public void onCreate() {
        work.increment();
        new Thread(this::initLibraries, "app-init").start();
    }

    private void initLibraries() {
        Latency.work(initMicros);
        main.postDelayed(this::hideSplash, splashMillis);  // H
    }

    private void hideSplash() {
        splashShown = false;
        listView = new ArrayList<>();  // the home layout, inflated
        if (bindOnInflate && feed != null) {
            listView.addAll(feed);
        }
        work.decrement();
    }

    /** Main thread: loads the home feed in the background. */
    public void loadFeed() {
        work.increment();
        new Thread(this::downloadFeed, "feed-loader").start();
    }

    private void downloadFeed() {
        SystemClock.sleep(feedMillis);
        List<String> items = FEED;
        main.post(() -> feedLoaded(items));  // L
    }

    private void feedLoaded(List<String> items) {
        feed = items;
        listView.addAll(items);
        work.decrement();
    }

    /** Main thread. */
    public boolean isSplashShown() {
        return splashShown;
    }

    /** Main thread: the items in the list on screen. */
    public int visibleItems() {
        return listView.size();
    }

    public IdlingResource idlingResource() {
        return work;
    }
}
