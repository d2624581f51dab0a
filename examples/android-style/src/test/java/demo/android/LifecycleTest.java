package demo.android;

import static androidx.test.espresso.Espresso.onIdle;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Instrumentation;
import androidx.test.espresso.IdlingRegistry;
import androidx.test.platform.app.InstrumentationRegistry;
import io.flakescan.fixture.MainLooperRule;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

/**
 * Root cause "lifecycle": an app-state-sensitive operation happens in the wrong lifecycle
 * state: a result delivered to a destroyed activity, a click on an activity that is not
 * resumed yet.
 */
public class LifecycleTest {
    static final long UPLOAD_MICROS = 120;
    static final long TRANSACTION_MICROS = 15;
    static final byte[] PHOTO = new byte[2048];

    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    private final Instrumentation instr = InstrumentationRegistry.getInstrumentation();
    private SystemServer system;

    @After
    public void closeSystem() {
        if (system != null) {
            system.close();
        }
    }

    /** Flaky: finishes the activity while the upload task may still deliver its result. */
    @Test
    public void uploadThenFinish() {
        UploadActivity activity = new UploadActivity(UPLOAD_MICROS);
        instr.runOnMainSync(activity::onCreate);
        instr.runOnMainSync(() -> activity.startUpload(PHOTO));
        instr.runOnMainSync(activity::finish);  // RACING: a later onPostExecute crashes the app
        onIdle();
        assertTrue(activity.isDestroyed());
    }

    /** Twin: waits for the upload (onIdle waits for AsyncTask) before finishing. */
    @Test
    public void uploadThenFinishAfterIdle() {
        UploadActivity activity = new UploadActivity(UPLOAD_MICROS);
        instr.runOnMainSync(activity::onCreate);
        instr.runOnMainSync(() -> activity.startUpload(PHOTO));
        onIdle();
        assertEquals("Uploaded 2048 bytes", onIdle(activity::statusText));
        instr.runOnMainSync(activity::finish);
        onIdle();
        assertTrue(activity.isDestroyed());
    }

    /**
     * Flaky: waitForIdleSync() only drains the main queue; whether the system's binder thread
     * has delivered onResume by the time of the click is down to thread scheduling.
     */
    @Test
    public void playAfterLaunch() {
        system = new SystemServer(TRANSACTION_MICROS);
        PlayerActivity player = new PlayerActivity();
        system.launch(player);
        instr.waitForIdleSync();
        instr.runOnMainSync(player::clickPlay);  // RACING: throws unless onResume came first
        assertTrue(onIdle(player::isPlaying));
    }

    /** Twin: the activity is busy for onIdle() until it is resumed. Never fails. */
    @Test
    public void playAfterLaunchWhenResumed() {
        system = new SystemServer(TRANSACTION_MICROS);
        PlayerActivity player = new PlayerActivity();
        IdlingRegistry.getInstance().register(player.resumedIdlingResource());
        system.launch(player);
        onIdle();
        instr.runOnMainSync(player::clickPlay);
        assertTrue(onIdle(player::isPlaying));
    }
}
