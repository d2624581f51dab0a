package example.threads.sleepwait;

import static org.junit.Assert.assertArrayEquals;

import org.junit.Test;

/** JUnit 4. A sleep used as a wait: the test gives the render thread 50 ms instead of waiting for it. */
public class ThumbnailRendererTest {
    @Test
    public void rendersTheThumbnail() throws InterruptedException {
        ThumbnailRenderer renderer = new ThumbnailRenderer();
        renderer.renderAsync(image(), 4);
        Thread.sleep(50); // RACE: hopes the render thread is done by now
        assertArrayEquals(new int[] {0, 12, 24, 36}, renderer.thumbnail());
    }

    @Test
    public void rendersTheThumbnailJoiningTheRender() throws InterruptedException {
        ThumbnailRenderer renderer = new ThumbnailRenderer();
        Thread render = renderer.renderAsync(image(), 4);
        render.join(5000);
        assertArrayEquals(new int[] {0, 12, 24, 36}, renderer.thumbnail());
    }

    private static int[] image() {
        int[] pixels = new int[16];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = 3 * i;
        }
        return pixels;
    }
}
