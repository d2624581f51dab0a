package demo.android;

import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;

/**
 * A search box. {@link #open()} asks the input method for the soft keyboard, which appears
 * later (an async event); {@link #submit()} runs the search and hides the keyboard. If the
 * keyboard's "shown" event comes after the submit, the keyboard pops up again over the
 * results: the app silently expects the order open -> shown -> submit. Main-thread fields.
 */
public final class SearchScreen {
    private final InputMethod inputMethod;
    private final long suggestMicros;
    private final CountingIdlingResource keyboard = new CountingIdlingResource("soft-keyboard");
    private boolean keyboardVisible;
    private String query = "";
    private String submitted;

    /** @param suggestMicros how long computing suggestions for typed text takes (main thread) */
    public SearchScreen(InputMethod inputMethod, long suggestMicros) {
        this.inputMethod = inputMethod;
        this.suggestMicros = suggestMicros;
    }

    /** Main thread: focuses the search box and requests the keyboard. */
    public void open() {
        keyboard.increment();
        inputMethod.showSoftInput(this::onKeyboardShown);
    }

    private void onKeyboardShown() {
        keyboardVisible = true;
        keyboard.decrement();
    }

    /** Main thread. */
    public void type(String text) {
        Latency.work(suggestMicros);
        query = text;
    }

    /** Main thread: runs the search and hides the keyboard. */
    public void submit() {
        submitted = query;
        keyboardVisible = false;
    }

    /** Main thread. */
    public boolean isKeyboardVisible() {
        return keyboardVisible;
    }

    /** Main thread. */
    public String submittedQuery() {
        return submitted;
    }

    public IdlingResource idlingResource() {
        return keyboard;
    }
}
