package io.flakescan.runner;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The method order OrderedRunner wants for the class of the launcher call it is about to make,
 * read by JupiterMethodOrder when the Jupiter engine orders that class's methods. Kept apart
 * from JupiterMethodOrder so that the runner loads no Jupiter class for a project without
 * JUnit 5.
 */
final class WantedMethodOrder {
    private static final ConcurrentHashMap<String, List<String>> BY_CLASS = new ConcurrentHashMap<>();

    private WantedMethodOrder() {}

    static void set(String className, List<String> methodNames) {
        BY_CLASS.put(className, methodNames);
    }

    static void clear(String className) {
        BY_CLASS.remove(className);
    }

    static List<String> get(String className) {
        return BY_CLASS.get(className);
    }
}
