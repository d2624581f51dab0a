package io.flakescan.threads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which enabled thread passes the next scheduling point. Every strategy draws from one
 * SplittableRandom seeded with flakescan.threads.seed, and only ever in an order fixed by the
 * schedule itself (candidates come sorted by thread index), so one seed gives one schedule.
 * The strategies and their papers are described in docs/threads.md ("How the agent works").
 */
abstract class Strategy {
    final SplittableRandom random;

    Strategy(long seed) {
        random = new SplittableRandom(seed);
    }

    /**
     * Chooses among `candidates` (non-empty, sorted by index) for step number `step` (1-based).
     * `together` is the step's number among the steps taken while more than one controlled
     * thread lives (1-based), or 0 when the step is taken by a thread alone.
     */
    abstract ThreadState choose(List<ThreadState> candidates, long step, long together);

    /** Told after `chosen` passed `op`; `waiting` are the other threads at a point. */
    void passed(ThreadState chosen, Op op, List<ThreadState> waiting) {}

    /** A thread that spun on one (op, target) is switched away from; strategies may lower it. */
    void demote(ThreadState spinner) {}

    /** A step nobody chose (a thread's end) was recorded for `thread`. */
    void unchosen(int thread, long step) {}

    /** The record's "replay" value (JSON), or null. */
    String replayJson() {
        return null;
    }

    static Strategy of(Settings s) throws IOException {
        switch (s.strategy) {
            case "random": return new RandomWalk(s.seed);
            case "pct": return new Pct(s.seed, s.depth, s.steps);
            case "pos": return new Pos(s.seed);
            case "replay":
                if (s.replayFile == null) throw new IOException("strategy replay needs flakescan.threads.replay");
                return new Replay(s.seed, readDecisions(s.replayFile));
            default: throw new IOException("unknown flakescan.threads.strategy " + s.strategy);
        }
    }

    /** The run-length pairs of a "decisions" array, expanded: one thread index per step. */
    static List<Integer> readDecisions(String file) throws IOException {
        String text = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
        List<Long> numbers = new ArrayList<>();
        long n = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') n = (n < 0 ? 0 : n * 10) + (c - '0');
            else if (n >= 0) { numbers.add(n); n = -1; }
        }
        if (n >= 0) numbers.add(n);
        if (numbers.size() % 2 != 0) throw new IOException("replay file " + file + " is not an array of [thread, count] pairs");
        List<Integer> steps = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i += 2)
            for (long k = 0; k < numbers.get(i + 1); k++) steps.add(numbers.get(i).intValue());
        return steps;
    }

    /** Uniform among the enabled threads at every point. */
    static final class RandomWalk extends Strategy {
        RandomWalk(long seed) {
            super(seed);
        }

        @Override
        ThreadState choose(List<ThreadState> candidates, long step, long together) {
            return candidates.size() == 1 ? candidates.get(0) : candidates.get(random.nextInt(candidates.size()));
        }
    }

    /**
     * PCT (Burckhardt et al., ASPLOS 2010): distinct random initial priorities >= d, d-1 change
     * points drawn from 1..k; the highest-priority enabled thread runs, and the thread that is
     * about to run at the i-th change point drops to priority i, below every initial one. The
     * change points count only steps taken while more than one controlled thread lives: a
     * change point in a set-up the test's thread runs alone would change nothing.
     */
    static final class Pct extends Strategy {
        private final int depth;
        private final long[] changePoints;
        private final java.util.Set<Integer> used = new java.util.HashSet<>();
        private int lowest = 0;

        Pct(long seed, int depth, int steps) {
            super(seed);
            this.depth = depth;
            changePoints = new long[depth - 1];
            for (int i = 0; i < changePoints.length; i++) changePoints[i] = 1 + random.nextInt(steps);
        }

        @Override
        ThreadState choose(List<ThreadState> candidates, long step, long together) {
            for (int i = 0; i < candidates.size(); i++) {
                ThreadState t = candidates.get(i);
                if (t.pctPriority != Integer.MIN_VALUE) continue;
                int p;
                do p = depth + random.nextInt(1 << 16); while (!used.add(p));
                t.pctPriority = p;
            }
            ThreadState best = highest(candidates);
            for (int i = 0; i < changePoints.length && together > 0; i++) {
                if (changePoints[i] == together) {
                    best.pctPriority = i + 1;
                    best = highest(candidates);
                }
            }
            return best;
        }

        @Override
        void demote(ThreadState spinner) {
            spinner.pctPriority = --lowest;
        }

        private static ThreadState highest(List<ThreadState> candidates) {
            ThreadState best = candidates.get(0);
            for (int i = 1; i < candidates.size(); i++) {
                ThreadState t = candidates.get(i);
                if (t.pctPriority > best.pctPriority) best = t;
            }
            return best;
        }
    }

    /**
     * POS (Yuan, Yang and Gu, CAV 2018): every pending operation has a random priority, the
     * highest runs, and after it ran the pending operations that conflict with it (same target,
     * not both reads) draw new priorities.
     */
    static final class Pos extends Strategy {
        Pos(long seed) {
            super(seed);
        }

        @Override
        ThreadState choose(List<ThreadState> candidates, long step, long together) {
            ThreadState best = null;
            for (int i = 0; i < candidates.size(); i++) {
                ThreadState t = candidates.get(i);
                if (Double.isNaN(t.pending.posPriority)) t.pending.posPriority = random.nextDouble();
                if (best == null || t.pending.posPriority > best.pending.posPriority) best = t;
            }
            return best;
        }

        @Override
        void passed(ThreadState chosen, Op op, List<ThreadState> waiting) {
            for (int i = 0; i < waiting.size(); i++) {
                ThreadState t = waiting.get(i);
                if (t != chosen && t.pending != null && !Double.isNaN(t.pending.posPriority) && t.pending.conflictsWith(op))
                    t.pending.posPriority = random.nextDouble();
            }
        }

        @Override
        void demote(ThreadState spinner) {
            if (spinner.pending != null) spinner.pending.posPriority = Double.NaN;
        }
    }

    /** Follows recorded decisions; where the recorded thread cannot run, goes on at random. */
    static final class Replay extends Strategy {
        private final List<Integer> recorded;
        private long followed;
        private long divergedAt = -1;

        Replay(long seed, List<Integer> recorded) {
            super(seed);
            this.recorded = recorded;
        }

        @Override
        ThreadState choose(List<ThreadState> candidates, long step, long together) {
            if (divergedAt < 0) {
                int want = step - 1 < recorded.size() ? recorded.get((int) (step - 1)) : -1;
                for (int i = 0; i < candidates.size(); i++) {
                    ThreadState t = candidates.get(i);
                    if (t.index == want) {
                        followed++;
                        return t;
                    }
                }
                divergedAt = step;
            }
            return candidates.size() == 1 ? candidates.get(0) : candidates.get(random.nextInt(candidates.size()));
        }

        @Override
        void unchosen(int thread, long step) {
            if (divergedAt >= 0) return;
            if (step - 1 < recorded.size() && recorded.get((int) (step - 1)) == thread) followed++;
            else divergedAt = step;
        }

        boolean diverged() {
            return divergedAt >= 0;
        }

        @Override
        String replayJson() {
            // A run that ended before the recorded decisions did also left the recorded schedule.
            if (divergedAt < 0 && followed < recorded.size()) divergedAt = followed + 1;
            Json j = new Json().beginObject().key("followed").number(followed).key("diverged_at");
            if (divergedAt < 0) j.nul();
            else j.number(divergedAt);
            return j.endObject().toString();
        }
    }
}
