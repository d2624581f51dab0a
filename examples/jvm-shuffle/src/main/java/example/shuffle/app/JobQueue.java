package example.shuffle.app;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.StringJoiner;

/** The jobs waiting for a worker, highest priority (lowest number) first. */
public final class JobQueue {
    private final PriorityQueue<Job> pending = new PriorityQueue<>(Comparator.comparingInt(Job::priority));

    public void submit(String name, int priority) {
        pending.add(new Job(name, priority));
    }

    /** The next job to run; poll() order is the priority order. */
    public Job next() {
        return pending.poll();
    }

    /**
     * The dashboard's status line. Iterating a PriorityQueue gives its internal heap layout,
     * which is neither submission order nor priority order (the Javadoc: "not guaranteed to
     * traverse the elements ... in any particular order").
     */
    public String describe() {
        StringJoiner line = new StringJoiner(", ", "pending: ", "");
        for (Job job : pending) { // shuffle-site
            line.add(job.name() + "(" + job.priority() + ")");
        }
        return line.toString();
    }
}
