package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.shuffle.app.JsonWriter;
import example.shuffle.app.Payment;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JUnit 5. Class.getFields() consumed in main code (JsonWriter.write). */
class JsonWriterTest {
    /**
     * Implementation-dependent: expects the members in declaration order, which OpenJDK's
     * getFields() returns; Payment declares them alphabetically, so sorting the fields by
     * name in JsonWriter fixes it.
     */
    @Test
    void writesMembersInDeclarationOrder() {
        assertEquals("{\"amount\":1250,\"currency\":\"EUR\",\"reference\":\"INV-7\"}",
                JsonWriter.write(new Payment(1250, "EUR", "INV-7")));
    }

    /** Twin: the same object, its members compared as a set. */
    @Test
    void writesEveryMember() {
        String json = JsonWriter.write(new Payment(1250, "EUR", "INV-7"));
        assertTrue(json.startsWith("{") && json.endsWith("}"), json);
        assertEquals(Set.of("\"amount\":1250", "\"currency\":\"EUR\"", "\"reference\":\"INV-7\""),
                new HashSet<>(Arrays.asList(json.substring(1, json.length() - 1).split(","))));
    }
}
