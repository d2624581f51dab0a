package example.order;

import static org.junit.Assert.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * JUnit 4. A class-level NIO test: @BeforeClass creates a named mock in a registry that lives as
 * long as the JVM and refuses a second mock of one name (as a static jMock Mockery does: "a mock
 * with name ... already exists"). Each test passes however often it runs within one run of the
 * class; the class's second run in one JVM fails in @BeforeClass, so both tests fail.
 */
public class MockRegistryClassNioTest {
    private static final Set<String> MOCKS = new HashSet<>();
    private static String ledger;

    @BeforeClass
    public static void createMocks() {
        if (!MOCKS.add("ledger")) throw new IllegalStateException("a mock with name ledger already exists");
        ledger = "ledger";
    }

    @Test
    public void readsBalance() {
        assertEquals("ledger", ledger);
    }

    @Test
    public void writesEntry() {
        assertEquals(1, MOCKS.size());
    }
}
