package java.util;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The loops of redirected methods (forEach, ConcurrentHashMap.toString) over a permuted
 * snapshot. They run outside the guard: the actions are user code, whose own calls are
 * shuffled in their turn, and whose exceptions propagate as from the JDK's loop.
 */
final class FlakescanLoops {
    private FlakescanLoops() {}

    /** forEach(Consumer) of a view or queue, or forEach(BiConsumer) of a map ("pairs"). */
    @SuppressWarnings("unchecked")
    static Object forEach(FlakescanSnapshot s, Object action, String handler) {
        boolean pairs = handler.endsWith(" pairs");
        boolean eachStep = s.checksEachStep();
        int n = s.size();
        for (int i = 0; i < n; i++) {
            if (pairs) {
                ((BiConsumer<Object, Object>) action).accept(s.key(i), s.value(i));
            } else {
                ((Consumer<Object>) action).accept(s.element(i));
            }
            if (eachStep) {
                s.checkForComodification();
            }
        }
        s.checkForComodification();
        return Boolean.TRUE;  // any non-null: "done, do not run the original body"
    }

    /** Map.toString as ConcurrentHashMap writes it: {k=v, k=v}, the map itself as "(this Map)". */
    static String mapToString(FlakescanSnapshot s, Object map) {
        StringBuilder sb = new StringBuilder();
        sb.append('{');
        for (int i = 0; i < s.size(); i++) {
            if (i > 0) {
                sb.append(',').append(' ');
            }
            Object k = s.key(i);
            Object v = s.value(i);
            sb.append(k == map ? "(this Map)" : k);
            sb.append('=');
            sb.append(v == map ? "(this Map)" : v);
        }
        return sb.append('}').toString();
    }
}
