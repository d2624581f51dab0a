package io.flakescan.runner;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A Jupiter MethodOrderer (set as junit.jupiter.testmethod.order.default for one launcher call)
 * that runs a class's selected methods in the order OrderedRunner asked for, so that one call
 * runs them in any order: a launcher call costs about 5 ms, and a shuffled round of 2,000
 * tests made one per test. A class with its own @TestMethodOrder keeps it (Jupiter gives that
 * precedence); OrderedRunner does not group such a class out of its discovery order.
 */
public final class JupiterMethodOrder implements MethodOrderer {
    @Override
    public void orderMethods(MethodOrdererContext context) {
        List<String> wanted = WantedMethodOrder.get(context.getTestClass().getName());
        if (wanted == null) return;
        context.getMethodDescriptors().sort(Comparator.comparingInt(d -> {
            int at = wanted.indexOf(d.getMethod().getName());
            return at < 0 ? Integer.MAX_VALUE : at;
        }));
    }

    /** Whether Jupiter would take this orderer for `className` (no @TestMethodOrder of its own). */
    static boolean orders(String className) {
        try {
            Class<?> cls = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            return !cls.isAnnotationPresent(TestMethodOrder.class);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
