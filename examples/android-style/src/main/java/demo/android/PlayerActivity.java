package demo.android;

import androidx.test.espresso.IdlingResource;

/**
 * A media player screen whose play button works only in the RESUMED state (clicking earlier
 * is an error, as operating widgets of an activity that is not resumed is). Lifecycle calls
 * come from {@link SystemServer}. Main-thread methods.
 */
public final class PlayerActivity {
    /** Lifecycle states, in order. */
    public enum State { INITIALIZED, CREATED, RESUMED }

    private State state = State.INITIALIZED;
    private boolean playing;
    private volatile IdlingResource.ResourceCallback resumed;

    void performCreate() {
        state = State.CREATED;
    }

    void performResume() {
        state = State.RESUMED;
        IdlingResource.ResourceCallback callback = resumed;
        if (callback != null) {
            callback.onTransitionToIdle();
        }
    }

    /** Busy until the activity is resumed; for tests that must not act earlier. */
    public IdlingResource resumedIdlingResource() {
        return new IdlingResource() {
            @Override
            public String getName() {
                return "player-resumed";
            }

            @Override
            public boolean isIdleNow() {
                return state == State.RESUMED;  // called on the main thread
            }

            @Override
            public void registerIdleTransitionCallback(ResourceCallback callback) {
                resumed = callback;
            }
        };
    }

    public void clickPlay() {
        if (state != State.RESUMED) {
            throw new IllegalStateException("play clicked while the activity is " + state);
        }
        playing = true;
    }

    public State state() {
        return state;
    }

    public boolean isPlaying() {
        return playing;
    }
}
