package demo.android;

import android.os.Handler;
import android.os.Looper;
import androidx.test.espresso.IdlingResource;
import androidx.test.espresso.idling.CountingIdlingResource;

/**
 * A screen that shows a forecast fetched in the background: {@link #refresh()} starts a
 * thread that "downloads" the forecast and posts it to the main thread (an async event).
 * The screen counts its fetches in an idling resource, which careful tests register.
 * Fields are touched on the main thread only.
 */
public final class WeatherScreen {
    private final Handler main = new Handler(Looper.getMainLooper());
    private final CountingIdlingResource fetches = new CountingIdlingResource("weather-fetches");
    private final long networkMicros;
    private String forecastText = "";

    /** @param networkMicros how long the download takes */
    public WeatherScreen(long networkMicros) {
        this.networkMicros = networkMicros;
    }

    /** Main thread: shows a placeholder and fetches the forecast in the background. */
    public void refresh() {
        forecastText = "Loading...";
        fetches.increment();
        new Thread(this::download, "weather-fetch").start();
    }

    private void download() {
        Latency.work(networkMicros);
        String forecast = "Sunny, 21 C";
        main.post(() -> show(forecast));
    }

    private void show(String forecast) {
        forecastText = forecast;
        fetches.decrement();
    }

    /** Main thread. */
    public String forecastText() {
        return forecastText;
    }

    public IdlingResource idlingResource() {
        return fetches;
    }
}
