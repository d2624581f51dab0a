package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.QueryString;
import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

/** JUnit 4. HashMap.entrySet().stream() consumed in main code (QueryString.encode). */
public class QueryStringTest {
    private static Map<String, String> listingParams() {
        Map<String, String> params = new HashMap<>();
        params.put("page", "2");
        params.put("limit", "50");
        params.put("sort", "name");
        params.put("filter", "status:open");
        return params;
    }

    /**
     * Implementation-dependent: the API wants the canonical (sorted) query, and these four
     * names happen to come out of a HashMap sorted. Fixed by a TreeMap in listingParams() (or
     * by sorting the entries in encode()); a LinkedHashMap would give page, limit, sort, filter.
     */
    @Test
    public void encodesParametersInCanonicalOrder() {
        assertEquals("filter=status%3Aopen&limit=50&page=2&sort=name", QueryString.encode(listingParams()));
    }

    /** Twin: whatever the order of the pairs, the query decodes to the same parameters. */
    @Test
    public void encodedQueryDecodesToTheSameParameters() {
        Map<String, String> params = listingParams();
        assertEquals(params, QueryString.decode(QueryString.encode(params)));
    }
}
