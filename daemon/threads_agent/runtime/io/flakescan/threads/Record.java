package io.flakescan.threads;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a session records: every step (the first and the last LIMIT of them in full), the
 * decisions as run-length pairs, and why the schedule is not exact. Pure bookkeeping; the
 * JSON shape is the contract's (docs/threads.md, "The schedule record").
 */
final class Record {
    static final int LIMIT = 1000;

    static final class Step {
        final int thread;
        final String op;
        final String target;
        final String site;

        Step(int thread, String op, String target, String site) {
            this.thread = thread;
            this.op = op;
            this.target = target;
            this.site = site;
        }
    }

    private final List<Step> first = new ArrayList<>();
    private final ArrayDeque<Step> last = new ArrayDeque<>();
    private long total;
    /** Steps chosen while more than one controlled thread lived. */
    private long together;
    /** Run-length pairs {thread, count}. */
    private final List<long[]> decisions = new ArrayList<>();
    final Set<String> inexact = new LinkedHashSet<>();

    long total() {
        return total;
    }

    long together() {
        return together;
    }

    /** `together`: the step was chosen while more than one controlled thread lived. */
    void add(Step step, boolean together) {
        total++;
        if (together) this.together++;
        if (first.size() < LIMIT) first.add(step);
        else {
            last.addLast(step);
            if (last.size() > LIMIT) last.removeFirst();
        }
        long[] run = decisions.isEmpty() ? null : decisions.get(decisions.size() - 1);
        if (run != null && run[0] == step.thread) run[1]++;
        else decisions.add(new long[] {step.thread, 1});
    }

    /** A step past the limit: counted, not listed, no decision. */
    void countUnrecorded() {
        total++;
    }

    void inexact(String reason) {
        inexact.add(reason);
    }

    /** "steps_total", "steps_together", "steps" (the first LIMIT then the last LIMIT, one
     *  array), "steps_omitted" (how many fell between them; only when some did) and "decisions". */
    void writeSteps(Json j) {
        j.key("steps_total").number(total);
        j.key("steps_together").number(together);
        j.key("steps").beginArray();
        for (Step s : first) writeStep(j, s);
        for (Step s : last) writeStep(j, s);
        j.endArray();
        long omitted = total - first.size() - last.size();
        if (omitted > 0) j.key("steps_omitted").number(omitted);
        j.key("decisions").beginArray();
        for (long[] run : decisions) j.beginArray().number(run[0]).number(run[1]).endArray();
        j.endArray();
    }

    private static void writeStep(Json j, Step s) {
        j.beginObject().key("thread").number(s.thread).key("op").string(s.op).key("target").string(s.target)
                .key("site").string(s.site).endObject();
    }
}
