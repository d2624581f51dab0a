package example.repair.app;

import java.util.ArrayList;
import java.util.List;

/** Names registered by the process, kept in a static list (pair a: static collection).
 *  {@link #clearAll} is the reset method: it calls {@code clear} on the field. */
public final class Registry {
    public static final List<String> NAMES = new ArrayList<>();

    private Registry() {}

    public static void register(String name) { NAMES.add(name); }

    public static void clearAll() { NAMES.clear(); }
}
