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
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs test ids in the order given. Tests are discovered through the JUnit Platform (once per
 * class, cached). Consecutive method ids of one plain JUnit 4 class run as one run of that
 * class through JUnit 4 itself, in exactly our order, repeats included (JUnit4Group). Any
 * other id is executed through the Platform with its own launcher call, so the order is
 * exactly ours and not the engine's, except where that costs for nothing: consecutive method
 * ids of one class, each once, in the order the engine itself runs that class's tests (its
 * discovery order), go in one launcher call, which runs them in that same order, and for
 * Jupiter classes (without a @TestMethodOrder of their own) in any order, which
 * JupiterMethodOrder imposes. A launcher call costs about half a millisecond once the JVM is
 * warm (discovery, engines, listeners), several times that before; for a round of 2,000 tests
 * one call per test was most of the run. The order the entries really started in is
 * checked; a class whose engine did not keep it is never grouped again. An entry listed in
 * classRunStarts (a line "|" before it in the tests file) never joins the group before it: its
 * class runs again from the start, @BeforeClass/@BeforeAll included, in this JVM. A run whose
 * ids are all plain JUnit 4 methods never starts the Platform at all (DirectJUnit4); in any
 * other run, the plain JUnit 4 methods DirectJUnit4 recognises are not discovered by it either.
 */
final class OrderedRunner {
    private final ResultSink sink;
    /** Made at first use: a run that DirectJUnit4 takes never builds one. */
    private Launcher launcher;
    /**
     * The ids that go to JUnit 4 directly (DirectJUnit4), without Platform discovery; all of
     * them in a run that never starts the Platform.
     */
    private java.util.Set<String> directIds = java.util.Set.of();
    /** class name -> (test id -> unique ids), in discovery order. */
    private final Map<String, Map<String, List<String>>> classes = new HashMap<>();
    private final Map<String, String> classProblems = new HashMap<>();
    /** Classes whose engine did not keep the discovery order in a grouped call. */
    private final java.util.Set<String> unordered = new java.util.HashSet<>();

    /** Entries that begin a new run of their class although the entry before is of the same class. */
    private final java.util.Set<Integer> classRunStarts;

    OrderedRunner(ResultSink sink, java.util.Set<Integer> classRunStarts) {
        this.sink = sink;
        this.classRunStarts = classRunStarts;
    }

    /** One "test" line per test, each once even when two ids name it ("pkg.C", "pkg.C#m"). */
    void discover(List<String> ids) {
        prefetch(ids);
        java.util.Set<String> listed = new java.util.HashSet<>();
        for (String id : ids) {
            String cls = classOf(id);
            Map<String, List<String>> tests = testsOf(cls);
            if (tests == null) {
                sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", classProblems.get(cls)));
            } else if (id.contains("#")) {
                if (!tests.containsKey(id)) sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", noMethod(id, tests)));
                else if (listed.add(id)) sink.write(new JsonLine().put("event", "test").put("test", id));
            } else if (tests.isEmpty()) {
                sink.write(new JsonLine().put("event", "missing").put("test", id).put("reason", "class " + cls + " has no tests"));
            } else {
                for (String test : tests.keySet())
                    if (listed.add(test)) sink.write(new JsonLine().put("event", "test").put("test", test));
            }
        }
        // Whether runs of these tests will go to JUnit 4 without the Platform: the daemon then has
        // its waiting JVMs warm JUnit 4 alone (Prestart).
        sink.write(new JsonLine().put("event", "direct").put("junit4", DirectJUnit4.all(new ArrayList<>(listed))));
    }

    /** Why `id` names no test; names the test of a nested class with that method, if any. */
    private static String noMethod(String id, Map<String, List<String>> tests) {
        String method = id.substring(id.indexOf('#'));
        for (String test : tests.keySet())
            if (test.endsWith(method)) return "no test method " + id + " (a test of a nested class is named by it: " + test + ")";
        return "no test method " + id;
    }

    void run(List<String> ids) {
        directIds = DirectJUnit4.runnableOf(ids);
        final boolean direct = !ids.isEmpty() && directIds.containsAll(ids);
        // In the run's log, so that a user (and a test) can tell which way the run went; in the
        // results, so that the daemon has its next waiting JVMs warm what this run needed.
        if (direct) System.err.println("flakescan runner: plain JUnit 4 methods, run by JUnit 4 without the Platform");
        else {
            if (!directIds.isEmpty())
                System.err.println(new StringBuilder("flakescan runner: ").append(directIds.size())
                        .append(" plain JUnit 4 methods run by JUnit 4 without Platform discovery, the others through the Platform"));
            prefetch(ids);
        }
        sink.write(new JsonLine().put("event", "direct").put("junit4", direct));
        ShuffleControl.startIfRequested();
        ThreadsControl.prepareIfRequested();
        int index = 0;
        while (index < ids.size()) {
            int end = groupEnd(ids, index);
            if (plainJUnit4(ids.get(index))) runJUnit4(ids, index, end);
            else if (end - index > 1) runGroup(ids, index, end);
            else runOne(ids.get(index), index);
            index = end;
        }
    }

    private void runOne(String id, int index) {
        List<String> uniqueIds = uniqueIdsOf(id);
        if (uniqueIds.isEmpty()) {
            String cls = classOf(id);
            String reason = classProblems.getOrDefault(cls, "no test " + id);
            sink.write(new JsonLine().put("event", "finished").put("index", index).put("test", id)
                    .put("outcome", "not_found").put("message", reason).put("duration_ms", 0.0));
            return;
        }
        sink.started(index, id);
        OutcomeListener listener = new OutcomeListener();
        long start = System.nanoTime();
        List<UniqueIdSelector> selectors = uniqueIds.stream().map(u -> selectUniqueId(u)).collect(Collectors.toList());
        launcher().execute(request().selectors(selectors).build(), listener);
        double millis = (System.nanoTime() - start) / 1e6;
        sink.finished(listener.result().toJson().put("index", index).put("test", id).put("duration_ms", millis));
    }

    /** The end (exclusive) of the group that starts at `from`: see the class comment. */
    private int groupEnd(List<String> ids, int from) {
        String first = ids.get(from);
        String cls = classOf(first);
        if (plainJUnit4(first)) {
            int end = from + 1;
            while (end < ids.size() && !classRunStarts.contains(end) && classOf(ids.get(end)).equals(cls) && plainJUnit4(ids.get(end)))
                end++;
            return end;
        }
        if (!first.contains("#") || unordered.contains(cls)) return from + 1;
        Map<String, List<String>> tests = testsOf(cls);
        if (tests == null) return from + 1;
        List<String> discovered = new ArrayList<>(tests.keySet());
        int last = discovered.indexOf(first);
        if (last < 0 || tests.get(first).size() != 1) return from + 1;
        boolean anyOrder = jupiterOrders(cls, tests.get(first).get(0));
        java.util.Set<String> inGroup = new java.util.HashSet<>(List.of(first));
        int end = from + 1;
        while (end < ids.size()) {
            String id = ids.get(end);
            if (classRunStarts.contains(end) || !id.contains("#") || !classOf(id).equals(cls)) break;
            int at = discovered.indexOf(id);
            if (at < 0 || tests.get(id).size() != 1 || !inGroup.add(id)) break;  // not found, a case list, or a repeat
            if (!anyOrder && at <= last) break;                                   // out of the engine's order
            last = at;
            end++;
        }
        return end;
    }

    /** A method of a JUnit 4 class that JUnit 4's default runner runs (JUnit4Group): any order, repeats included. */
    private boolean plainJUnit4(String id) {
        if (directIds.contains(id)) return true;
        if (!id.contains("#")) return false;
        List<String> uniqueIds = uniqueIdsOf(id);
        return uniqueIds.size() == 1 && uniqueIds.get(0).startsWith("[engine:junit-vintage]")
                && JUnit4Group.plain(classOf(id));
    }

    /** Writes the lines of entry `from + e` of `ids` for a group's entry e. */
    private GroupListener.Sink entrySink(List<String> ids, int from) {
        return new GroupListener.Sink() {
            @Override
            public void started(int entry) {
                sink.started(from + entry, ids.get(from + entry));
            }

            @Override
            public void finished(int entry, OutcomeListener outcome, double millis) {
                sink.finished(outcome.result().toJson().put("index", from + entry).put("test", ids.get(from + entry))
                        .put("duration_ms", millis));
            }
        };
    }

    private void runJUnit4(List<String> ids, int from, int end) {
        List<String> methods = new ArrayList<>();
        for (int i = from; i < end; i++) methods.add(ids.get(i).substring(ids.get(i).indexOf('#') + 1));
        JUnit4Group.run(classOf(ids.get(from)), methods, entrySink(ids, from));
    }

    /** Classes of the Jupiter engine whose methods JupiterMethodOrder can put in any order. */
    private final Map<String, Boolean> jupiterOrdered = new HashMap<>();

    private boolean jupiterOrders(String cls, String uniqueId) {
        if (!uniqueId.startsWith("[engine:junit-jupiter]")) return false;
        return jupiterOrdered.computeIfAbsent(cls, JupiterMethodOrder::orders);
    }

    private void runGroup(List<String> ids, int from, int end) {
        List<String> uniqueIds = new ArrayList<>();
        for (int i = from; i < end; i++) uniqueIds.add(uniqueIdsOf(ids.get(i)).get(0));
        GroupListener listener = new GroupListener(uniqueIds, entrySink(ids, from));
        List<UniqueIdSelector> selectors = uniqueIds.stream().map(u -> selectUniqueId(u)).collect(Collectors.toList());
        String cls = classOf(ids.get(from));
        boolean ordered = jupiterOrders(cls, uniqueIds.get(0));
        LauncherDiscoveryRequestBuilder builder = request().selectors(selectors);
        if (ordered) {
            List<String> methods = new ArrayList<>();
            for (int i = from; i < end; i++) methods.add(ids.get(i).substring(ids.get(i).indexOf('#') + 1));
            WantedMethodOrder.set(cls, methods);
            builder.configurationParameter("junit.jupiter.testmethod.order.default", JupiterMethodOrder.class.getName());
        }
        try {
            launcher().execute(builder.build(), listener);
        } finally {
            if (ordered) WantedMethodOrder.clear(cls);
        }
        listener.finishRest();
        if (!listener.keptOrder()) {
            unordered.add(cls);
            System.err.println("flakescan runner: the engine did not run " + cls + "'s tests in their discovery order; "
                    + "its tests now run one launcher call each");
        }
    }

    private Launcher launcher() {
        if (launcher == null) launcher = LauncherFactory.create();
        return launcher;
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

    /**
     * Discovers the tests of every top-level class the ids name in one launcher call (one per
     * class cost about 15 ms each: a third of a 200-class run), filling the same per-class map
     * testsOf() fills. A class it does not find stays for testsOf() to discover on its own.
     */
    private void prefetch(List<String> ids) {
        java.util.Set<String> todo = new java.util.LinkedHashSet<>();
        for (String id : ids) {
            String cls = classOf(id);
            if (directIds.contains(id) || cls.contains("$") || classes.containsKey(cls) || classProblems.containsKey(cls)) continue;
            try {
                Class.forName(cls, false, Thread.currentThread().getContextClassLoader());
                todo.add(cls);
            } catch (ClassNotFoundException | LinkageError e) {
                classProblems.put(cls, "class not found on the classpath: " + cls);
            }
        }
        if (todo.size() < 2) return;
        TestPlan plan = launcher().discover(request()
                .selectors(todo.stream().map(c -> selectClass(c)).collect(Collectors.toList())).build());
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier child : plan.getChildren(root)) {
                TestSource source = child.getSource().orElse(null);
                if (!(source instanceof ClassSource)) continue;
                String cls = ((ClassSource) source).getClassName();
                if (!todo.contains(cls)) continue;
                collect(plan, child, classes.computeIfAbsent(cls, k -> new LinkedHashMap<>()));
            }
        }
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
        TestPlan plan = launcher().discover(request().selectors(selectClass(cls)).build());
        Map<String, List<String>> tests = new LinkedHashMap<>();
        for (TestIdentifier root : plan.getRoots()) collect(plan, root, tests);
        classes.put(cls, tests);
        return tests;
    }

    /**
     * A test's id is the class its method source names and the method: "pkg.C#m", and
     * "pkg.Outer$Inner#m" for a JUnit 5 @Nested class (so equal method names in two nested
     * classes stay two tests). Parameterised, repeated and dynamic JUnit 5 tests are
     * containers whose invocations are the tests, and JUnit 4 Parameterized rows are tests
     * whose method source drops the "[row]": either way one id for the method, executing
     * every invocation (OutcomeListener names the invocation that failed).
     */
    private static void collect(TestPlan plan, TestIdentifier node, Map<String, List<String>> out) {
        boolean methodContainer = node.isContainer() && node.getSource().filter(s -> s instanceof MethodSource).isPresent();
        if (node.isTest() || methodContainer) {
            String id = testIdOf(node);
            if (id != null) {
                out.computeIfAbsent(id, k -> new ArrayList<>()).add(node.getUniqueId());
                return;
            }
            if (node.isTest()) return;
        }
        for (TestIdentifier child : plan.getChildren(node)) collect(plan, child, out);
    }

    private static String testIdOf(TestIdentifier node) {
        TestSource source = node.getSource().orElse(null);
        if (source instanceof MethodSource) {
            MethodSource m = (MethodSource) source;
            return m.getClassName() + "#" + m.getMethodName();
        }
        // The Vintage engine gives a JUnit 3 or 4 test a class source when it cannot name one
        // method (a JUnit 3 test method with an overload): its display name is then the
        // method's name, "testX" or "testX(pkg.C)".
        if (node.isTest() && source instanceof ClassSource) {
            String name = node.getDisplayName();
            int paren = name.indexOf('(');
            if (paren > 0) name = name.substring(0, paren);
            if (isJavaIdentifier(name)) return ((ClassSource) source).getClassName() + "#" + name;
        }
        return null;
    }

    private static boolean isJavaIdentifier(String name) {
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) return false;
        for (int i = 1; i < name.length(); i++)
            if (!Character.isJavaIdentifierPart(name.charAt(i))) return false;
        return true;
    }
}
