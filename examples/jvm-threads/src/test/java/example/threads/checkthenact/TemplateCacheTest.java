package example.threads.checkthenact;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** JUnit 5. Check-then-act: two threads ask a cache for one template, which should be compiled once. */
class TemplateCacheTest {
    private static final String GREETING = "Hello, {name}!";
    private static final String FAREWELL = "Goodbye, {name}.";

    @Test
    void compilesEachTemplateOnce() throws InterruptedException {
        TemplateCache cache = new TemplateCache();
        cache.template(FAREWELL);
        Template[] got = fetchFromTwoThreads(cache::template);
        assertSame(got[0], got[1]);
    }

    @Test
    void compilesEachTemplateOnceSynchronized() throws InterruptedException {
        SynchronizedTemplateCache cache = new SynchronizedTemplateCache();
        cache.template(FAREWELL);
        Template[] got = fetchFromTwoThreads(cache::template);
        assertSame(got[0], got[1]);
    }

    private static Template[] fetchFromTwoThreads(Function<String, Template> cache) throws InterruptedException {
        Template[] got = new Template[2];
        Thread a = new Thread(() -> got[0] = cache.apply(GREETING), "mailer-a");
        Thread b = new Thread(() -> got[1] = cache.apply(GREETING), "mailer-b");
        a.start();
        b.start();
        a.join();
        b.join();
        return got;
    }
}
