package demo.android;

import android.os.Handler;
import android.os.Looper;
import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;

/**
 * Edits a {@link Profile}. {@link #load()} syncs the profile from the server on a background
 * thread and applies the server copy on the main thread (an async event), overwriting the
 * fields in {@link #profile}; {@link #save()} stores the nickname currently in the profile.
 * The profile belongs to the main thread.
 */
public final class ProfileScreen {
    /** Main-thread data. */
    public final Profile profile = new Profile("Ada", "ada");

    private final Handler main = new Handler(Looper.getMainLooper());
    private final CountingIdlingResource syncs = new CountingIdlingResource("profile-sync");
    private final long serverMicros;
    private String savedNickname;

    public ProfileScreen(long serverMicros) {
        this.serverMicros = serverMicros;
    }

    /** Main thread: starts syncing the profile from the server. */
    public void load() {
        syncs.increment();
        new Thread(this::fetchServerCopy, "profile-sync").start();
    }

    private void fetchServerCopy() {
        Latency.work(serverMicros);
        Profile server = new Profile("Ada Lovelace", "countess");
        main.post(() -> apply(server));
    }

    private void apply(Profile server) {
        profile.name = server.name;
        profile.nickname = server.nickname;
        syncs.decrement();
    }

    /** Main thread. */
    public void editNickname(String nickname) {
        profile.nickname = nickname;
    }

    /** Main thread. */
    public void save() {
        savedNickname = profile.nickname;
    }

    /** Main thread. */
    public String savedNickname() {
        return savedNickname;
    }

    public IdlingResource idlingResource() {
        return syncs;
    }
}
