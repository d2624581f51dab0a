package io.flakescan.runner;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Ignore;
import org.junit.runner.Description;
import org.junit.runner.RunWith;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;

/**
 * Runs consecutive entries of one plain JUnit 4 class through JUnit 4's own default runner, in
 * exactly the order given, repeats included, as one run of the class (its @BeforeClass and
 * @AfterClass once around them). The Vintage engine runs a class's tests only in their own
 * order, so a reversed or shuffled class, or a test twice in a row, cost one launcher call
 * (about half a millisecond) per test; here the whole class is one call. "Plain" is a class
 * the Vintage engine would also give JUnit 4's default runner: no @RunWith, no class-level
 * @Ignore, no static suite() method, not a JUnit 3 TestCase. Every other class stays with the
 * Platform. Only loaded for classes of the Vintage engine, so a project without JUnit 4 never
 * loads it.
 */
final class JUnit4Group {
    private JUnit4Group() {}

    private static final Map<String, Boolean> PLAIN = new HashMap<>();

    /** Whether `className` is run by JUnit 4's default runner. */
    static boolean plain(String className) {
        return PLAIN.computeIfAbsent(className, JUnit4Group::isPlain);
    }

    private static boolean isPlain(String className) {
        try {
            Class<?> cls = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            if (cls.isAnnotationPresent(RunWith.class) || cls.isAnnotationPresent(Ignore.class)) return false;
            if (junit.framework.Test.class.isAssignableFrom(cls)) return false;
            try {
                Method suite = cls.getMethod("suite");
                if (Modifier.isStatic(suite.getModifiers())) return false;
            } catch (NoSuchMethodException e) {
                // the usual case
            }
            return Modifier.isPublic(cls.getModifiers());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The default runner with its children replaced by the methods named, in that order. */
    private static final class InOrder extends BlockJUnit4ClassRunner {
        private final List<String> names;

        InOrder(Class<?> cls, List<String> names) throws InitializationError {
            super(cls);
            this.names = names;
        }

        @Override
        protected List<FrameworkMethod> getChildren() {
            Map<String, FrameworkMethod> byName = new HashMap<>();
            for (FrameworkMethod m : computeTestMethods()) byName.putIfAbsent(m.getName(), m);
            List<FrameworkMethod> out = new ArrayList<>();
            for (String name : names) {
                FrameworkMethod m = byName.get(name);
                if (m == null) throw new IllegalArgumentException("no test method " + name);
                out.add(m);
            }
            return out;
        }
    }

    /**
     * Runs `methods` of `className` in that order. Each entry's "started" line is written when
     * JUnit starts it and its "finished" line when JUnit finishes it; a class-level failure
     * (initialiser, @BeforeClass, a rule on the class, or a class JUnit rejects) belongs to every
     * entry not finished yet, as in a Platform group.
     */
    static void run(String className, List<String> methods, GroupListener.Sink sink) {
        int n = methods.size();
        OutcomeListener[] outcomes = new OutcomeListener[n];
        for (int i = 0; i < n; i++) outcomes[i] = new OutcomeListener();
        long[] startedAt = new long[n];
        boolean[] done = new boolean[n];
        boolean[] unsuccessful = new boolean[n];  // failed or aborted: JUnit 4 still says "finished"
        int[] next = {0};  // the entry JUnit comes to next: it runs the children in order
        Runnable finishCurrent = () -> {
            int e = next[0]++;
            done[e] = true;
            double millis = startedAt[e] == 0 ? 0.0 : (System.nanoTime() - startedAt[e]) / 1e6;
            sink.finished(e, outcomes[e], millis);
        };
        RunListener listener = new RunListener() {
            @Override
            public void testStarted(Description d) {
                if (next[0] >= n) return;
                startedAt[next[0]] = System.nanoTime();
                sink.started(next[0]);
            }

            @Override
            public void testFailure(Failure f) {
                if (f.getDescription().isTest() && next[0] < n && startedAt[next[0]] != 0) {
                    outcomes[next[0]].testFailed(f.getException(), null);
                    unsuccessful[next[0]] = true;
                } else for (int e = next[0]; e < n; e++) outcomes[e].containerFailed(f.getException());
            }

            @Override
            public void testAssumptionFailure(Failure f) {
                if (next[0] >= n) return;
                outcomes[next[0]].skipped(String.valueOf(f.getMessage()));
                unsuccessful[next[0]] = true;
            }

            @Override
            public void testIgnored(Description d) {
                if (next[0] >= n) return;
                Ignore ignore = d.getAnnotation(Ignore.class);
                outcomes[next[0]].skipped(ignore == null || ignore.value().isBlank() ? "ignored" : ignore.value());
                finishCurrent.run();
            }

            @Override
            public void testFinished(Description d) {
                if (next[0] >= n) return;
                if (!unsuccessful[next[0]]) outcomes[next[0]].testPassed();
                finishCurrent.run();
            }
        };
        RunNotifier notifier = new RunNotifier();
        notifier.addListener(listener);
        try {
            Class<?> cls = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            new InOrder(cls, methods).run(notifier);
        } catch (InitializationError e) {
            Throwable cause = e.getCauses().isEmpty() ? e : e.getCauses().get(0);
            for (int i = next[0]; i < n; i++) outcomes[i].containerFailed(cause);
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            for (int i = next[0]; i < n; i++) outcomes[i].containerFailed(e);
        }
        for (int e = 0; e < n; e++) {
            if (done[e]) continue;
            if (startedAt[e] == 0) sink.started(e);
            done[e] = true;
            sink.finished(e, outcomes[e], 0.0);
        }
    }
}
