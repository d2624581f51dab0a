package io.flakescan.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs test ids one at a time, in the order given, through the JUnit Platform. Each id is
 * mapped to the unique ids of its tests (discovered once per class and cached), and executed
 * with its own launcher call, so the order is exactly ours and not the engine's.
 */
final class OrderedRunner {
    private final ResultSink sink;
    private final Launcher launcher = LauncherFactory.create();
    /** class name -> (test id -> unique ids), in discovery order. */
    private final Map<String, Map<String, List<String>>> classes = new HashMap<>();
    private final Map<String, String> classProblems = new HashMap<>();

    OrderedRunner(ResultSink sink) {
        this.sink = sink;
    }

    void discover(List<String> ids) {
        for (String id : ids) {
            String cls = classOf(id);
            Map<String, List<String>> tests = testsOf(cls);
            if (tests == null) {
                sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", classProblems.get(cls)));
            } else if (id.contains("#")) {
                if (tests.containsKey(id)) sink.write(new JsonLine().put("event", "test").put("test", id));
                else sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", "no test method " + id));
            } else if (tests.isEmpty()) {
                sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", "class " + cls + " has no tests"));
            } else {
                for (String test : tests.keySet()) sink.write(new JsonLine().put("event", "test").put("test", test));
            }
        }
    }

    void run(List<String> ids) {
        for (int index = 0; index < ids.size(); index++) {
            String id = ids.get(index);
            List<String> uniqueIds = uniqueIdsOf(id);
            if (uniqueIds.isEmpty()) {
                String cls = classOf(id);
                String reason = classProblems.getOrDefault(cls, "no test " + id);
                sink.write(new JsonLine().put("event", "finished").put("index", index).put("test", id)
                        .put("outcome", "not_found").put("message", reason).put("duration_ms", 0.0));
                continue;
            }
            sink.write(new JsonLine().put("event", "started").put("index", index).put("test", id));
            OutcomeListener listener = new OutcomeListener();
            long start = System.nanoTime();
            List<UniqueIdSelector> selectors = uniqueIds.stream().map(u -> selectUniqueId(u)).collect(Collectors.toList());
            launcher.execute(request().selectors(selectors).build(), listener);
            double millis = (System.nanoTime() - start) / 1e6;
            sink.write(listener.result().toJson().put("index", index).put("test", id).put("duration_ms", millis));
        }
    }

    private List<String> uniqueIdsOf(String id) {
        Map<String, List<String>> tests = testsOf(classOf(id));
        if (tests == null) return List.of();
        if (id.contains("#")) return tests.getOrDefault(id, List.of());
        List<String> all = new ArrayList<>();
        tests.values().forEach(all::addAll);
        return all;
    }

    private static String classOf(String id) {
        int hash = id.indexOf('#');
        return hash < 0 ? id : id.substring(0, hash);
    }

    /** The tests of one class, or null when the class cannot be used (the reason is kept). */
    private Map<String, List<String>> testsOf(String cls) {
        if (classes.containsKey(cls)) return classes.get(cls);
        if (classProblems.containsKey(cls)) return null;
        try {
            // Load without initialising: a failing static initialiser is the test's error, not ours.
            Class.forName(cls, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            classProblems.put(cls, "class not found on the classpath: " + cls);
            return null;
        }
        TestPlan plan = launcher.discover(request().selectors(selectClass(cls)).build());
        Map<String, List<String>> tests = new LinkedHashMap<>();
        for (TestIdentifier root : plan.getRoots()) collect(plan, root, cls, tests);
        classes.put(cls, tests);
        return tests;
    }

    private static void collect(TestPlan plan, TestIdentifier node, String cls, Map<String, List<String>> out) {
        if (node.isTest()) {
            String method = methodName(node);
            if (method != null) out.computeIfAbsent(cls + "#" + method, k -> new ArrayList<>()).add(node.getUniqueId());
            return;
        }
        // Parameterised JUnit 5 tests are containers whose invocations are the tests: one id
        // for the method, executing every invocation.
        if (node.isContainer() && node.getSource().filter(s -> s instanceof MethodSource).isPresent()) {
            String method = methodName(node);
            if (method != null) {
                out.computeIfAbsent(cls + "#" + method, k -> new ArrayList<>()).add(node.getUniqueId());
                return;
            }
        }
        for (TestIdentifier child : plan.getChildren(node)) collect(plan, child, cls, out);
    }

    private static String methodName(TestIdentifier node) {
        TestSource source = node.getSource().orElse(null);
        if (source instanceof MethodSource) return ((MethodSource) source).getMethodName();
        return null;
    }
}
