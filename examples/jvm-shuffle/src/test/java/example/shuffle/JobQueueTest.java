package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.JobQueue;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

/** JUnit 4. PriorityQueue iteration in main code (JobQueue.describe), not its poll() order. */
public class JobQueueTest {
    private static JobQueue nightly() {
        JobQueue queue = new JobQueue();
        queue.submit("test", 3);
        queue.submit("build", 1);
        queue.submit("deploy", 2);
        queue.submit("lint", 4);
        return queue;
    }

    /**
     * Implementation-dependent: the expected line is the heap layout copied from a run: not
     * the submission order, not the priority order (build, deploy, test, lint), not sorted by
     * name. No small fix repairs it.
     */
    @Test
    public void describesPendingJobs() {
        assertEquals("pending: build(1), test(3), deploy(2), lint(4)", nightly().describe());
    }

    /** Twin: the same line, its entries compared as a set. */
    @Test
    public void describesEveryPendingJob() {
        String line = nightly().describe();
        assertEquals(Set.of("build(1)", "test(3)", "deploy(2)", "lint(4)"),
                new HashSet<>(Arrays.asList(line.substring("pending: ".length()).split(", "))));
    }
}
