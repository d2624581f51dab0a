package example.shuffle.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters for the /metrics endpoint, updated from many threads. The scrape output lists the
 * counters in the order they were registered, so that dashboards show them in that order;
 * ConcurrentHashMap does not keep that order.
 */
public final class MetricsRegistry {
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

    public void register(String name) {
        counters.putIfAbsent(name, new LongAdder());
    }

    public void increment(String name) {
        counters.computeIfAbsent(name, unused -> new LongAdder()).increment();
    }

    public long count(String name) {
        LongAdder counter = counters.get(name);
        return counter == null ? 0 : counter.sum();
    }

    /** One "name value" line per counter. */
    public String scrape() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, LongAdder> counter : counters.entrySet()) { // shuffle-site
            out.append(counter.getKey()).append(' ').append(counter.getValue().sum()).append('\n');
        }
        return out.toString();
    }
}
