package demo.android;

import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;
import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;

/**
 * A note editor that restores the unsaved draft from disk and syncs the note with the server,
 * each on its own background thread; both report to the main thread (async events). The
 * draft store posts "draft loaded" (D). The sync thread connects, posts "sync started" (S:
 * the editor turns read-only while the server copy is merged), merges, and posts "sync
 * finished" (F: server title, editable again); S always comes before F (one thread, FIFO).
 * D is applied through the same path as typing, which is ignored while the editor is
 * read-only: the app silently expects D before S or after F, never in between. With
 * {@code keepDraftWhileLocked} a draft that arrives while read-only is kept and applied when
 * the sync finishes (the fix: every order of D, S, F gives the same editor). Main-thread
 * fields.
 */
public final class NotesScreen {
    static final String DRAFT = "Buy milk";
    static final String SERVER_TITLE = "Groceries";

    private final Handler main = new Handler(Looper.getMainLooper());
    private final CountingIdlingResource work = new CountingIdlingResource("notes-work");
    private final long diskMicros;
    private final long connectMillis;
    private final long mergeMillis;
    private final boolean keepDraftWhileLocked;
    private boolean readOnly;
    private String text = "";
    private String title = "Untitled";
    private String pendingDraft;

    /**
     * @param diskMicros how long reading the draft takes (draft-store thread)
     * @param connectMillis how long the sync takes before the merge starts (notes-sync thread)
     * @param mergeMillis how long the merge takes, the editor read-only meanwhile
     * @param keepDraftWhileLocked the fix: keep a draft that comes during the merge
     */
    public NotesScreen(long diskMicros, long connectMillis, long mergeMillis,
            boolean keepDraftWhileLocked) {
        this.diskMicros = diskMicros;
        this.connectMillis = connectMillis;
        this.mergeMillis = mergeMillis;
        this.keepDraftWhileLocked = keepDraftWhileLocked;
    }

    /** Main thread: reads the unsaved draft in the background. */
    public void restoreDraft() {
        work.increment();
        new Thread(this::readDraft, "draft-store").start();
    }

    private void readDraft() {
        Latency.work(diskMicros);
        String draft = DRAFT;
        main.post(() -> draftLoaded(draft));  // D
    }

    private void draftLoaded(String draft) {
        if (readOnly && keepDraftWhileLocked) {
            pendingDraft = draft;
        } else {
            type(draft);  // dropped while read-only
        }
        work.decrement();
    }

    /** Main thread: syncs the note with the server in the background. */
    public void sync() {
        work.increment();
        new Thread(this::syncWithServer, "notes-sync").start();
    }

    private void syncWithServer() {
        SystemClock.sleep(connectMillis);
        main.post(this::syncStarted);  // S
        SystemClock.sleep(mergeMillis);
        String serverTitle = SERVER_TITLE;
        main.post(() -> syncFinished(serverTitle));  // F
    }

    private void syncStarted() {
        readOnly = true;
    }

    private void syncFinished(String serverTitle) {
        title = serverTitle;
        readOnly = false;
        if (pendingDraft != null) {
            type(pendingDraft);
            pendingDraft = null;
        }
        work.decrement();
    }

    // What a key press does: nothing while read-only.
    private void type(String s) {
        if (!readOnly) {
            text = s;
        }
    }

    /** Main thread. */
    public String text() {
        return text;
    }

    /** Main thread. */
    public String title() {
        return title;
    }

    public IdlingResource idlingResource() {
        return work;
    }
}
