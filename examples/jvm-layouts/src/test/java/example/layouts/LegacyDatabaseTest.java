package example.layouts;

import static org.junit.Assert.assertTrue;

import org.junit.BeforeClass;
import org.junit.Test;

/** JUnit 4 class whose @BeforeClass always fails: none of its tests can run (failing, with
 *  the @BeforeClass error as the failure). Its message carries a 40 KB connection log, as
 *  drivers' messages do: the runner cuts it to 8 KiB. */
public class LegacyDatabaseTest {
    @BeforeClass
    public static void connect() {
        StringBuilder log = new StringBuilder();
        for (int attempt = 1; log.length() < 40_000; attempt++)
            log.append("\nattempt ").append(attempt).append(": connection refused (localhost:5432)");
        throw new IllegalStateException("no database at jdbc:legacy://localhost:5432: the suite needs a running server" + log);
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
