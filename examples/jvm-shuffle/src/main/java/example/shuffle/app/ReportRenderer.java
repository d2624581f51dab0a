package example.shuffle.app;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the one-line summary a CI job prints after a test run, e.g.
 * {@code passed=3, failed=1, skipped=1, errored=1}: each status with its count, in the order
 * the statuses first appeared in the run.
 */
public final class ReportRenderer {
    public String summary(List<String> statuses) {
        Map<String, Integer> counts = new HashMap<>();
        for (String status : statuses) {
            counts.put(status, counts.getOrDefault(status, 0) + 1);
        }
        // "First appeared" is what the summary promises, but a HashMap keeps no insertion order:
        // the line comes out right only because of how these status names happen to hash.
        StringBuilder line = new StringBuilder();
        for (Map.Entry<String, Integer> count : counts.entrySet()) { // shuffle-site
            if (line.length() > 0) {
                line.append(", ");
            }
            line.append(count.getKey()).append('=').append(count.getValue());
        }
        return line.toString();
    }
}
