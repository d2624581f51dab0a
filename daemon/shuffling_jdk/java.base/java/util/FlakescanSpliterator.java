package java.util;

import java.util.function.Consumer;

/**
 * A shuffled spliterator. Late-binding like the JDK's: the elements are collected and permuted
 * at the first traversal, split or size query, not when the spliterator is made (the call site
 * and its call count were fixed then). Reports the original's characteristics plus SIZED; does
 * not split (a parallel stream over it runs in one piece). Fail-fast like the family's own
 * spliterators: tryAdvance checks after each element, forEachRemaining at the end.
 */
final class FlakescanSpliterator implements Spliterator<Object> {
    private final Spliterator<?> original;
    private final Object source;
    private final int view;
    private final FlakescanSite site;
    private FlakescanSnapshot snapshot;  // null until bound
    private int index;

    FlakescanSpliterator(Spliterator<?> original, Object source, int view, FlakescanSite site) {
        this.original = original;
        this.source = source;
        this.view = view;
        this.site = site;
    }

    private FlakescanSnapshot bound() {
        if (snapshot == null) {
            snapshot = FlakescanSpliterator.bind(source, view, site);
        }
        return snapshot;
    }

    /** The source's elements now, permuted when there are 2 or more; in plain order if ours fails. */
    private static FlakescanSnapshot bind(Object source, int view, FlakescanSite site) {
        boolean guarded = FlakescanState.enter();  // false inside our own code, or after the state went away
        try {
            FlakescanSnapshot taken = FlakescanSnapshot.take(source, view);
            if (guarded && taken.size() >= 2) {
                taken.permute(FlakescanState.permutation(site, taken.size()));
                FlakescanState.shuffled(site, taken.size());
            }
            return taken;
        } finally {
            if (guarded) {
                FlakescanState.exit();
            }
        }
    }

    @Override
    public boolean tryAdvance(Consumer<? super Object> action) {
        Objects.requireNonNull(action);
        FlakescanSnapshot s = bound();
        if (index >= s.size()) {
            return false;
        }
        action.accept(s.element(index++));
        s.checkForComodification();
        return true;
    }

    @Override
    public void forEachRemaining(Consumer<? super Object> action) {
        Objects.requireNonNull(action);
        FlakescanSnapshot s = bound();
        int n = s.size();
        while (index < n) {
            action.accept(s.element(index++));
        }
        s.checkForComodification();
    }

    @Override
    public Spliterator<Object> trySplit() {
        bound();
        return null;
    }

    @Override
    public long estimateSize() {
        return bound().size() - index;
    }

    @Override
    public int characteristics() {
        return original.characteristics() | SIZED;
    }
}
