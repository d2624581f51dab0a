package io.flakescan.runner;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a run's ids can go to JUnit 4 without the JUnit Platform discovering them first.
 * A run of plain JUnit 4 methods goes through JUnit4Group whatever the Platform says, and the
 * Platform's only part in it was discovery, to learn that the Vintage engine alone claims each
 * id: a launcher built and the class discovered by both engines. Without it a runner JVM of
 * one JUnit 4 test took 107 to 118 ms of CPU, against 178 to 196 with it (docs/benchmarks.md,
 * 2026-11-29). Here the same facts come from reflection: the class is plain for JUnit4Group, not
 * abstract and not nested; the method is the only public method of that name, takes nothing,
 * is not static, carries JUnit 4's @Test and no JUnit 5 annotation, and the class carries no
 * JUnit 5 annotation either. Any doubt, and any way the project could hook into the Platform
 * (a junit-platform.properties, or a service file naming an engine or listener that is not
 * JUnit's own, i.e. outside the org.junit packages), sends the run the usual way. A class is
 * loaded, never initialised, as in discovery. A run of both kinds sends the ids that pass to
 * JUnit 4 directly as well, and only the others through Platform discovery.
 */
final class DirectJUnit4 {
    private DirectJUnit4() {}

    /** Service files through which a project adds to what the Platform does when it discovers or runs. */
    private static final List<String> PLATFORM_SERVICES = List.of(
            "META-INF/services/org.junit.platform.engine.TestEngine",
            "META-INF/services/org.junit.platform.launcher.LauncherSessionListener",
            "META-INF/services/org.junit.platform.launcher.LauncherDiscoveryListener",
            "META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter",
            "META-INF/services/org.junit.platform.launcher.TestExecutionListener");

    /** True when every id can run through JUnit4Group with no Platform discovery. */
    static boolean all(List<String> ids) {
        return !ids.isEmpty() && runnableOf(ids).containsAll(ids);
    }

    /**
     * The ids that can run through JUnit4Group with no Platform discovery: in a run that needs
     * the Platform for its other ids, these stay out of its discovery (the Vintage engine's
     * discovery of 100 plain JUnit 4 classes cost about 0.3 s of CPU in a fresh JVM, and
     * JUnit4Group builds each class's runner again anyway). None when the project could hook
     * into the Platform.
     */
    static Set<String> runnableOf(List<String> ids) {
        Set<String> out = new HashSet<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader.getResource("junit-platform.properties") != null) return out;
        try {
            for (String service : PLATFORM_SERVICES)
                if (othersThanJUnits(loader, service)) return out;
        } catch (IOException e) {
            return out;
        }
        Map<Class<?>, Method[]> methods = new HashMap<>();
        for (String id : ids) {
            try {
                if (!out.contains(id) && runnable(id, loader, methods)) out.add(id);
            } catch (LinkageError e) {
                // JUnit 4 itself is not on the classpath, or the class does not link: the Platform's way
            }
        }
        return out;
    }

    /** Whether a service file of that name anywhere on the classpath names a class outside org.junit. */
    private static boolean othersThanJUnits(ClassLoader loader, String service) throws IOException {
        Enumeration<URL> files = loader.getResources(service);
        while (files.hasMoreElements()) {
            try (InputStream in = files.nextElement().openStream()) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    int comment = line.indexOf('#');
                    String name = (comment < 0 ? line : line.substring(0, comment)).trim();
                    if (!name.isEmpty() && !name.startsWith("org.junit.")) return true;
                }
            }
        }
        return false;
    }

    private static boolean runnable(String id, ClassLoader loader, Map<Class<?>, Method[]> methods) {
        int hash = id.indexOf('#');
        if (hash < 0) return false;
        String className = id.substring(0, hash);
        String name = id.substring(hash + 1);
        if (className.contains("$") || !JUnit4Group.plain(className)) return false;
        Class<?> cls;
        try {
            cls = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            return false;
        }
        if (Modifier.isAbstract(cls.getModifiers()) || fromJupiter(cls.getAnnotations())) return false;
        Method found = null;
        // No lambda or method reference here: bootstrapping one costs a run milliseconds of
        // class spinning after its instruction (Prestart).
        Method[] all = methods.get(cls);
        if (all == null) {
            all = cls.getMethods();
            methods.put(cls, all);
        }
        for (Method m : all) {
            if (!m.getName().equals(name)) continue;
            if (found != null) return false;  // overloads: the Platform names them its own way
            found = m;
        }
        return found != null && found.getParameterCount() == 0 && !Modifier.isStatic(found.getModifiers())
                && found.isAnnotationPresent(org.junit.Test.class) && !fromJupiter(found.getAnnotations());
    }

    private static boolean fromJupiter(Annotation[] annotations) {
        for (Annotation a : annotations)
            if (a.annotationType().getName().startsWith("org.junit.jupiter.")) return true;
        return false;
    }
}
