package example.shuffle.app;

import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.concurrent.PriorityBlockingQueue;

/** Build requests waiting for an agent; agents take() them in priority order. */
public final class BuildScheduler {
    private final PriorityBlockingQueue<Build> queue =
            new PriorityBlockingQueue<>(11, Comparator.comparingInt(Build::priority));

    public void submit(Build build) {
        queue.add(build);
    }

    public Build take() throws InterruptedException {
        return queue.take();
    }

    /**
     * The waiting builds, for the status page. A view of the queue: its toArray() and
     * iterator() give the heap layout, not the order take() hands them out in.
     */
    public Collection<Build> queued() {
        return Collections.unmodifiableCollection(queue);
    }
}
