package example.layouts;

import static org.junit.Assert.assertTrue;

import org.junit.BeforeClass;
import org.junit.Test;

/** JUnit 4 class whose @BeforeClass always fails: none of its tests can run (failing, with
 *  the @BeforeClass error as the failure). */
public class LegacyDatabaseTest {
    @BeforeClass
    public static void connect() {
        throw new IllegalStateException("no database at jdbc:legacy://localhost:5432: the suite needs a running server");
    }

    @Test
    public void readsRow() {
        assertTrue(true);
    }

    @Test
    public void writesRow() {
        assertTrue(true);
    }
}
