package example.layouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import example.layouts.app.Shipping;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Reads a test resource (src/test/resources) and, through Shipping, a main resource
 *  (src/main/resources): both must be on the classpath as directories. Stable. */
class CatalogueResourceTest {
    @Test
    void readsTheCatalogue() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("catalogue.csv")) {
            assertNotNull(in, "catalogue.csv (a test resource) is not on the classpath");
            List<String> lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines().collect(Collectors.toList());
            assertEquals(4, lines.size());
            assertEquals("A-1,coffee,350", lines.get(1));
        }
    }

    @Test
    void readsTheRates() {
        assertEquals(6, Shipping.costFor("NL"));
    }
}
