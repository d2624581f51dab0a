package demo.android;

import static androidx.test.espresso.Espresso.onIdle;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import android.app.Instrumentation;
import androidx.test.espresso.IdlingRegistry;
import androidx.test.platform.app.InstrumentationRegistry;
import io.flakescan.fixture.MainLooperRule;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

/**
 * Root cause "event order": the test expects an order of main-thread events that usually
 * happens but is not guaranteed, here "keyboard shown" (from the input method's thread)
 * before "submit" (from the test). When the keyboard shows up late it stays on screen.
 */
public class EventOrderTest {
    static final long KEYBOARD_LAYOUT_MICROS = 10;  // the keyboard is quick ...
    static final long SUGGEST_MICROS = 1500;         // ... next to suggestions for the typed text

    @Rule
    public final MainLooperRule mainLooper = new MainLooperRule();

    private final Instrumentation instr = InstrumentationRegistry.getInstrumentation();
    private InputMethod inputMethod;

    @After
    public void closeInputMethod() {
        if (inputMethod != null) {
            inputMethod.close();
        }
    }

    /** Flaky: submits without waiting for the keyboard to be shown. */
    @Test
    public void keyboardHiddenAfterSubmit() {
        inputMethod = new InputMethod(KEYBOARD_LAYOUT_MICROS);
        SearchScreen search = new SearchScreen(inputMethod, SUGGEST_MICROS);
        instr.runOnMainSync(search::open);
        instr.runOnMainSync(() -> search.type("espresso"));
        instr.runOnMainSync(search::submit);  // RACING: hides a keyboard that may not be shown yet
        boolean visible = onIdle(search::isKeyboardVisible);
        assertEquals("espresso", onIdle(search::submittedQuery));
        assertFalse("soft keyboard still visible after submit", visible);
    }

    /** Twin: waits for the keyboard (idling resource) before typing and submitting. */
    @Test
    public void keyboardHiddenAfterSubmitWaitingForKeyboard() {
        inputMethod = new InputMethod(KEYBOARD_LAYOUT_MICROS);
        SearchScreen search = new SearchScreen(inputMethod, SUGGEST_MICROS);
        IdlingRegistry.getInstance().register(search.idlingResource());
        instr.runOnMainSync(search::open);
        onIdle();
        instr.runOnMainSync(() -> search.type("espresso"));
        instr.runOnMainSync(search::submit);
        boolean visible = onIdle(search::isKeyboardVisible);
        assertEquals("espresso", onIdle(search::submittedQuery));
        assertFalse("soft keyboard still visible after submit", visible);
    }
}
