package example.threads.sleepwait;

/** Renders a thumbnail (every scale-th pixel) on a thread of its own. */
public class ThumbnailRenderer {
    private volatile int[] thumbnail;

    /** Starts the render and returns its thread; thumbnail() is null until the thread is done. */
    public Thread renderAsync(int[] image, int scale) {
        Thread render = new Thread(() -> {
            int[] small = new int[image.length / scale];
            for (int i = 0; i < small.length; i++) {
                small[i] = image[i * scale];
            }
            thumbnail = small; // RACE: set whenever the render thread gets here
        }, "thumbnail-render");
        render.setDaemon(true);
        render.start();
        return render;
    }

    public int[] thumbnail() {
        return thumbnail; // RACE: read by the caller, done or not
    }
}
