package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Headers;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JUnit 5. HashMap.toString() in test code. */
class HeadersTest {
    private static Headers jsonRequest() {
        return new Headers()
                .set("Host", "api.example.org")
                .set("Accept", "application/json")
                .set("Content-Type", "application/json")
                .set("User-Agent", "shop-client/2.4");
    }

    /**
     * Implementation-dependent: the expected text is the HashMap's toString() copied from a
     * run; it is neither the order the headers were set in nor sorted. Fixed by comparing
     * the map with a map instead of its string.
     */
    @Test
    void printsHeaders() {
        Map<String, String> headers = jsonRequest().asMap();
        assertEquals("{Accept=application/json, User-Agent=shop-client/2.4, Host=api.example.org, Content-Type=application/json}", headers.toString()); // shuffle-site
    }

    /** Twin: the same headers compared as a map. */
    @Test
    void holdsHeaders() {
        assertEquals(Map.of("Host", "api.example.org", "Accept", "application/json",
                        "Content-Type", "application/json", "User-Agent", "shop-client/2.4"),
                jsonRequest().asMap());
    }
}
