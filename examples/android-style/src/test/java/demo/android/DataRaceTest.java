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
 * Root cause "data race": the testing thread writes data that the main thread also writes
 * (the profile the server sync overwrites), with no synchronisation between the two. When
 * the sync lands between the test's write and the save, the test's edit is lost.
 */
public class DataRaceTest {
    static final long SERVER_MICROS = 100;

    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    private final Instrumentation instr = InstrumentationRegistry.getInstrumentation();

    /** Flaky: edits the main thread's profile from the testing thread while a sync runs. */
    @Test
    public void nicknameEditSurvivesSync() {
        ProfileScreen screen = new ProfileScreen(SERVER_MICROS);
        instr.runOnMainSync(screen::load);
        screen.profile.nickname = "bob";  // RACING: unsynchronised write; the sync may overwrite it
        instr.runOnMainSync(screen::save);
        String saved = onIdle(screen::savedNickname);
        assertEquals("bob", saved);
    }

    /** Twin: waits for the sync, then edits on the main thread. Never fails. */
    @Test
    public void nicknameEditSurvivesSyncWhenSynchronised() {
        ProfileScreen screen = new ProfileScreen(SERVER_MICROS);
        IdlingRegistry.getInstance().register(screen.idlingResource());
        instr.runOnMainSync(screen::load);
        onIdle();
        instr.runOnMainSync(() -> screen.editNickname("bob"));
        instr.runOnMainSync(screen::save);
        String saved = onIdle(screen::savedNickname);
        assertEquals("bob", saved);
    }
}
