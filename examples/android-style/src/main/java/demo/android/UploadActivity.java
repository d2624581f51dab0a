package demo.android;

import android.os.AsyncTask;

/**
 * Uploads a photo with an {@link AsyncTask}: the upload runs on an executor thread and its
 * onPostExecute (posted to the main thread: an async event) writes to the status view. The
 * activity forgets to cancel the task when it is destroyed, so a result that arrives after
 * {@link #finish()} crashes the app. Main-thread methods.
 */
public final class UploadActivity {
    private final long uploadMicros;
    private StatusView status;
    private boolean destroyed;

    public UploadActivity(long uploadMicros) {
        this.uploadMicros = uploadMicros;
    }

    public void onCreate() {
        status = new StatusView();
        status.setText("Ready");
    }

    public void startUpload(byte[] photo) {
        status.setText("Uploading...");
        new UploadTask().execute(photo);
    }

    /** Destroys the activity (onDestroy): its views are released. */
    public void finish() {
        status.release();
        destroyed = true;
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    public String statusText() {
        return status.getText();
    }

    private final class UploadTask extends AsyncTask<byte[], Void, Integer> {
        @Override
        protected Integer doInBackground(byte[]... photos) {
            Latency.work(uploadMicros);
            return photos[0].length;
        }

        @Override
        protected void onPostExecute(Integer bytes) {
            status.setText("Uploaded " + bytes + " bytes");
        }
    }
}
