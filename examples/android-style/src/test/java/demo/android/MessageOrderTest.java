package demo.android;

import static androidx.test.espresso.Espresso.onIdle;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import android.app.Instrumentation;
import androidx.test.espresso.IdlingRegistry;
import androidx.test.platform.app.InstrumentationRegistry;
import io.flakescan.fixture.MainLooperRule;
import org.junit.Rule;
import org.junit.Test;

/**
 * Root cause "event order" between async messages: the app expects an order of messages that
 * background threads post to the main looper, an order that usually happens but that nothing
 * guarantees (different posting threads, or a later post with a shorter delay). The tests
 * wait correctly (idling resources) for every message to be handled, so each failure is about
 * the order the messages were handled in, not about looking too early. Holding one message
 * until the testing thread blocks does not give the failing order: the other messages'
 * work starts at a later statement and posts tens of milliseconds after the testing thread
 * blocked. The twins run the fixed app, which gives the same screen in every order.
 */
public class MessageOrderTest {
    static final long DISK_MICROS = 200;    // the draft is read at once ...
    static final long CONNECT_MILLIS = 40;  // ... long before the sync reaches the merge
    static final long MERGE_MILLIS = 10;
    static final long INIT_MICROS = 200;    // the libraries are set up at once ...
    static final long SPLASH_MILLIS = 5;    // ... and the splash hides long before ...
    static final long FEED_MILLIS = 40;     // ... the feed arrives

    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    private final Instrumentation instr = InstrumentationRegistry.getInstrumentation();

    /**
     * Flaky: fails only when "draft loaded" (draft-store thread) comes after "sync started"
     * and before "sync finished" (notes-sync thread); before both or after both it passes.
     */
    @Test
    public void draftKeptAcrossSync() {
        NotesScreen notes = new NotesScreen(DISK_MICROS, CONNECT_MILLIS, MERGE_MILLIS, false);
        IdlingRegistry.getInstance().register(notes.idlingResource());
        instr.runOnMainSync(notes::restoreDraft);
        instr.runOnMainSync(notes::sync);  // RACING: its two messages may enclose "draft loaded"
        onIdle();
        assertEquals(NotesScreen.SERVER_TITLE, onIdle(notes::title));
        assertEquals("draft lost during the sync", NotesScreen.DRAFT, onIdle(notes::text));
    }

    /** Twin: the editor keeps a draft that comes during the merge. Never fails. */
    @Test
    public void draftKeptAcrossSyncWhenKeptWhileLocked() {
        NotesScreen notes = new NotesScreen(DISK_MICROS, CONNECT_MILLIS, MERGE_MILLIS, true);
        IdlingRegistry.getInstance().register(notes.idlingResource());
        instr.runOnMainSync(notes::restoreDraft);
        instr.runOnMainSync(notes::sync);
        onIdle();
        assertEquals(NotesScreen.SERVER_TITLE, onIdle(notes::title));
        assertEquals("draft lost during the sync", NotesScreen.DRAFT, onIdle(notes::text));
    }

    /**
     * Flaky: fails only when "feed loaded" (feed-loader thread, no delay) overtakes "hide
     * splash", which the app-init thread posted earlier with postDelayed.
     */
    @Test
    public void feedShownAfterSplash() {
        LaunchActivity app = new LaunchActivity(INIT_MICROS, SPLASH_MILLIS, FEED_MILLIS, false);
        IdlingRegistry.getInstance().register(app.idlingResource());
        instr.runOnMainSync(app::onCreate);
        instr.runOnMainSync(app::loadFeed);  // RACING: "feed loaded" may overtake "hide splash"
        onIdle();
        assertFalse(onIdle(app::isSplashShown));
        assertEquals("feed items on the home screen", 3, (int) onIdle(app::visibleItems));
    }

    /** Twin: the home layout binds a feed that came before it was inflated. Never fails. */
    @Test
    public void feedShownAfterSplashWhenBoundOnInflate() {
        LaunchActivity app = new LaunchActivity(INIT_MICROS, SPLASH_MILLIS, FEED_MILLIS, true);
        IdlingRegistry.getInstance().register(app.idlingResource());
        instr.runOnMainSync(app::onCreate);
        instr.runOnMainSync(app::loadFeed);
        onIdle();
        assertFalse(onIdle(app::isSplashShown));
        assertEquals("feed items on the home screen", 3, (int) onIdle(app::visibleItems));
    }
}
