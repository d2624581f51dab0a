package demo.android;

import static androidx.test.espresso.Espresso.onIdle;
import static org.junit.Assert.assertEquals;

import android.app.Instrumentation;
import androidx.test.espresso.IdlingRegistry;
import androidx.test.platform.app.InstrumentationRegistry;
import io.flakescan.fixture.MainLooperRule;
import org.junit.Rule;
import org.junit.Test;

/**
 * Root cause "async wait": the test does not wait, or waits for the wrong thing, before it
 * looks at a result that a background thread delivers to the main thread. The twins register
 * the screen's idling resource, so onIdle() also waits for the background work.
 */
public class AsyncWaitTest {
    static final long NETWORK_MICROS = 150;   // a fast "download": races the test's next step
    static final long DECODE_MICROS = 5;      // a tiny decode ...
    static final long LAYOUT_MICROS = 1500;   // ... while the main thread lays out the title

    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    private final Instrumentation instr = InstrumentationRegistry.getInstrumentation();

    /** Flaky: onIdle() waits for the main queue, not for the download thread. */
    @Test
    public void forecastShownAfterRefresh() {
        WeatherScreen screen = new WeatherScreen(NETWORK_MICROS);
        instr.runOnMainSync(screen::refresh);
        String shown = onIdle(screen::forecastText);  // RACING: reads before the forecast is posted
        assertEquals("Sunny, 21 C", shown);
    }

    /** Twin: the download is an idling resource, so onIdle() waits for it. Never fails. */
    @Test
    public void forecastShownAfterRefreshWithIdlingResource() {
        WeatherScreen screen = new WeatherScreen(NETWORK_MICROS);
        IdlingRegistry.getInstance().register(screen.idlingResource());
        instr.runOnMainSync(screen::refresh);
        String shown = onIdle(screen::forecastText);
        assertEquals("Sunny, 21 C", shown);
    }

    /**
     * Flaky, rarely: the thumbnail decodes in microseconds and the test does two more
     * round trips to the main thread before it looks, so the decoder almost always wins.
     */
    @Test
    public void thumbnailShownAfterOpen() {
        Gallery gallery = new Gallery(DECODE_MICROS, LAYOUT_MICROS);
        instr.runOnMainSync(gallery::open);
        instr.runOnMainSync(() -> gallery.showTitle("Holidays"));
        instr.waitForIdleSync();
        int visible = onIdle(gallery::visibleThumbnails);  // RACING: the decoder may be late
        assertEquals(1, visible);
    }

    /** Twin: waits for the decoder through its idling resource. Never fails. */
    @Test
    public void thumbnailShownAfterOpenWithIdlingResource() {
        Gallery gallery = new Gallery(DECODE_MICROS, LAYOUT_MICROS);
        IdlingRegistry.getInstance().register(gallery.idlingResource());
        instr.runOnMainSync(gallery::open);
        instr.runOnMainSync(() -> gallery.showTitle("Holidays"));
        onIdle();
        int visible = onIdle(gallery::visibleThumbnails);
        assertEquals(1, visible);
    }
}
