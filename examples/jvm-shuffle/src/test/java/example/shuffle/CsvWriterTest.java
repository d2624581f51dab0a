package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.Customer;
import example.shuffle.app.CsvWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** JUnit 4. Class.getDeclaredFields() consumed in main code (CsvWriter.write). */
public class CsvWriterTest {
    private static final List<Customer> CUSTOMERS = List.of(
            new Customer(1, "Ann", "ann@example.org", "Oslo"),
            new Customer(2, "Bo", "bo@example.org", "Lund"));

    /**
     * Implementation-dependent: expects the columns in declaration order, which HotSpot's
     * getDeclaredFields() happens to return. No small fix repairs it: the order is neither an
     * insertion order nor sorted (sorting gives city,email,id,name), and the expected value is
     * a CSV text, not a collection.
     */
    @Test
    public void exportsColumnsInDeclarationOrder() {
        assertEquals("id,name,email,city\n1,Ann,ann@example.org,Oslo\n2,Bo,bo@example.org,Lund\n",
                CsvWriter.write(CUSTOMERS, Customer.class));
    }

    /** Twin: the same export read back by column name, so the column order does not matter. */
    @Test
    public void exportsEveryFieldUnderItsName() {
        assertEquals(List.of(
                        Map.of("id", "1", "name", "Ann", "email", "ann@example.org", "city", "Oslo"),
                        Map.of("id", "2", "name", "Bo", "email", "bo@example.org", "city", "Lund")),
                parse(CsvWriter.write(CUSTOMERS, Customer.class)));
    }

    private static List<Map<String, String>> parse(String csv) {
        String[] lines = csv.split("\n");
        String[] header = lines[0].split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] cells = lines[i].split(",");
            Map<String, String> row = new HashMap<>();
            for (int column = 0; column < header.length; column++) {
                row.put(header[column], cells[column]);
            }
            rows.add(row);
        }
        return rows;
    }
}
