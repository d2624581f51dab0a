package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.MetricsRegistry;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JUnit 5. ConcurrentHashMap.entrySet() iterated in main code (MetricsRegistry.scrape). */
class MetricsRegistryTest {
    private static MetricsRegistry webMetrics() {
        MetricsRegistry metrics = new MetricsRegistry();
        metrics.register("http.errors");
        metrics.register("http.requests");
        metrics.register("jobs.queued");
        metrics.register("cache.hits");
        for (int i = 0; i < 5; i++) {
            metrics.increment("http.requests");
        }
        metrics.increment("http.errors");
        metrics.increment("cache.hits");
        metrics.increment("cache.hits");
        return metrics;
    }

    /**
     * Implementation-dependent: expects the counters in registration order, which these
     * four names happen to keep in a ConcurrentHashMap. Fixed by a LinkedHashMap in
     * MetricsRegistry (the field is a Map; the tests are single-threaded); sorting would put
     * cache.hits first.
     */
    @Test
    void scrapesCountersInRegistrationOrder() {
        assertEquals("http.errors 1\nhttp.requests 5\njobs.queued 0\ncache.hits 2\n", webMetrics().scrape());
    }

    /** Twin: the same scrape read back into a map. */
    @Test
    void scrapesEveryCounter() {
        Map<String, Long> values = new HashMap<>();
        for (String line : webMetrics().scrape().split("\n")) {
            String[] nameAndValue = line.split(" ");
            values.put(nameAndValue[0], Long.valueOf(nameAndValue[1]));
        }
        assertEquals(Map.of("http.errors", 1L, "http.requests", 5L, "jobs.queued", 0L, "cache.hits", 2L), values);
    }
}
