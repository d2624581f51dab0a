package io.flakescan.runner;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * The listener of one launcher call that runs several consecutive entries of one class
 * (OrderedRunner.runGroup). Each event goes to the entry whose unique id it is, or is under
 * (a parameterised method's invocations); the class container's events go to every entry.
 * An entry's "started" line is written when its first test starts, its "finished" line as
 * soon as its test is done, so a JVM that dies mid-group is attributed as in single runs.
 * It also records the order the entries started in, to check the engine kept ours.
 */
final class GroupListener implements TestExecutionListener {
    interface Sink {
        void started(int entry);
        void finished(int entry, OutcomeListener listener, double millis);
    }

    private final List<String> uniqueIds;  // per entry
    private final List<OutcomeListener> outcomes = new ArrayList<>();
    private final long[] startedAt;
    private final boolean[] done;
    private final Sink sink;
    private final List<Integer> startOrder = new ArrayList<>();

    GroupListener(List<String> uniqueIds, Sink sink) {
        this.uniqueIds = uniqueIds;
        this.sink = sink;
        this.startedAt = new long[uniqueIds.size()];
        this.done = new boolean[uniqueIds.size()];
        for (int i = 0; i < uniqueIds.size(); i++) outcomes.add(new OutcomeListener());
    }

    private int entryOf(TestIdentifier id) {
        String u = id.getUniqueId();
        for (int i = 0; i < uniqueIds.size(); i++) {
            String e = uniqueIds.get(i);
            if (u.equals(e) || u.startsWith(e + "/")) return i;
        }
        return -1;  // a container around the entries (engine, class)
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        int e = entryOf(id);
        if (e >= 0 && startedAt[e] == 0) {
            startedAt[e] = System.nanoTime();
            startOrder.add(e);
            sink.started(e);
        }
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        int e = entryOf(id);
        if (e >= 0) {
            outcomes.get(e).executionSkipped(id, reason);
            if (id.getUniqueId().equals(uniqueIds.get(e))) {
                // A skipped entry (@Disabled, @Ignore) never starts, but it came in its place.
                if (startedAt[e] == 0 && !startOrder.contains(e)) startOrder.add(e);
                finish(e);
            }
        } else {
            for (OutcomeListener o : outcomes) o.executionSkipped(id, reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        int e = entryOf(id);
        if (e >= 0) {
            outcomes.get(e).executionFinished(id, result);
            if (id.getUniqueId().equals(uniqueIds.get(e))) finish(e);
        } else {
            // The class container: its failure (@BeforeAll, @AfterAll, initialiser) belongs to
            // every entry of the group.
            for (OutcomeListener o : outcomes) o.executionFinished(id, result);
        }
    }

    private void finish(int e) {
        if (done[e]) return;
        done[e] = true;
        double millis = startedAt[e] == 0 ? 0.0 : (System.nanoTime() - startedAt[e]) / 1e6;
        sink.finished(e, outcomes.get(e), millis);
    }

    /** After the launcher call: entries not finished yet (a container failed before them). */
    void finishRest() {
        for (int e = 0; e < done.length; e++) {
            if (!done[e]) {
                if (startedAt[e] == 0) sink.started(e);
                finish(e);
            }
        }
    }

    /** True when the entries started in the order they were given. */
    boolean keptOrder() {
        for (int i = 0; i < startOrder.size(); i++)
            if (startOrder.get(i) != i) return false;
        return true;
    }
}
