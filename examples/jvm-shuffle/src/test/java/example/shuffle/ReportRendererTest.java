package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.ReportRenderer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** JUnit 4. HashMap.entrySet() iterated in main code (ReportRenderer.summary). */
public class ReportRendererTest {
    private static final List<String> RUN =
            List.of("passed", "failed", "passed", "skipped", "errored", "passed");

    /**
     * Implementation-dependent: expects the statuses in first-seen order, which the HashMap in
     * summary() only gives because of how these four names hash. Fixed by a LinkedHashMap
     * there; sorting would give "errored=1, failed=1, ..." and not pass.
     */
    @Test
    public void summaryListsStatusesInFirstSeenOrder() {
        assertEquals("passed=3, failed=1, skipped=1, errored=1", new ReportRenderer().summary(RUN));
    }

    /** Twin: the same summary, read back into a map, so the order of its parts does not matter. */
    @Test
    public void summaryCountsEveryStatus() {
        Map<String, Integer> counts = new HashMap<>();
        for (String part : new ReportRenderer().summary(RUN).split(", ")) {
            String[] statusAndCount = part.split("=");
            counts.put(statusAndCount[0], Integer.valueOf(statusAndCount[1]));
        }
        assertEquals(Map.of("passed", 3, "failed", 1, "skipped", 1, "errored", 1), counts);
    }
}
