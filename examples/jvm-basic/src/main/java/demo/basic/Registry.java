package demo.basic;

import java.util.LinkedHashMap;
import java.util.Map;

/** Process-wide registry: the shared static state that order-dependent tests trip over. */
public final class Registry {
    private static final Map<String, String> ENTRIES = new LinkedHashMap<>();
    private static boolean configLoaded;

    private Registry() {}

    public static void register(String key, String value) { ENTRIES.put(key, value); }
    public static int size() { return ENTRIES.size(); }
    public static void clear() { ENTRIES.clear(); }
    public static void loadConfig() { configLoaded = true; }
    public static boolean configLoaded() { return configLoaded; }
}
