package example.shuffle.app;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tracks open file handles and who opened them, to log leaks at shutdown. Keyed by identity:
 * handles on the same path are equal, yet each must be tracked (and closed) on its own.
 */
public final class ResourceTracker {
    private final Map<Handle, String> openedBy = new IdentityHashMap<>();
    private int nextDescriptor = 3;

    public Handle open(String path, String owner) {
        Handle handle = new Handle(path, nextDescriptor++);
        openedBy.put(handle, owner);
        return handle;
    }

    public void close(Handle handle) {
        openedBy.remove(handle);
    }

    public Map<Handle, String> openHandles() {
        return Collections.unmodifiableMap(openedBy);
    }

    /**
     * One "handle <- owner" line per handle still open. The handles and the owners are read
     * as two separate lists: they line up only if keySet() and values() walk the map in the
     * same order, which OpenJDK's IdentityHashMap does and its Javadoc does not promise.
     */
    public List<String> leakReport() {
        return pair(new ArrayList<>(openedBy.keySet()), new ArrayList<>(openedBy.values())); // shuffle-site
    }

    private static List<String> pair(List<Handle> handles, List<String> owners) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < handles.size(); i++) {
            lines.add(handles.get(i) + " <- " + owners.get(i));
        }
        return lines;
    }
}
