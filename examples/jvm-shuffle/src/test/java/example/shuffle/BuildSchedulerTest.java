package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Build;
import example.shuffle.app.BuildScheduler;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JUnit 5. PriorityBlockingQueue.toArray() in test code (through a read-only view). */
class BuildSchedulerTest {
    private static final Build CORE = new Build("core", 1);
    private static final Build APP = new Build("app", 2);
    private static final Build TESTS = new Build("tests", 3);
    private static final Build DOCS = new Build("docs", 5);

    private static BuildScheduler morning() {
        BuildScheduler scheduler = new BuildScheduler();
        scheduler.submit(APP);
        scheduler.submit(DOCS);
        scheduler.submit(CORE);
        scheduler.submit(TESTS);
        return scheduler;
    }

    /**
     * Implementation-dependent: the expected text is the queue's heap layout copied from a
     * run; neither the submission order nor the priority order (core, app, tests, docs).
     * Fixed by comparing the elements as collections instead of the printed array.
     */
    @Test
    void showsQueuedBuilds() {
        assertEquals("[core(1), tests(3), app(2), docs(5)]", Arrays.toString(morning().queued().toArray())); // shuffle-site
    }

    /** Twin: the same builds compared as a set, and take() hands out the most urgent first. */
    @Test
    void queuesEveryBuild() throws InterruptedException {
        BuildScheduler scheduler = morning();
        Object[] queued = scheduler.queued().toArray();
        assertEquals(Set.of(CORE, APP, TESTS, DOCS), new HashSet<>(Arrays.asList(queued)));
        assertEquals(CORE, scheduler.take());
    }
}
