package example.layouts;

import org.junit.Test;

/** JUnit 4. Calls System.exit in the middle of the test, as code under test sometimes does:
 *  the JVM ends, the test never finishes, and every run says that System.exit ended it. */
public class ExitingTest {
    @Test
    public void exitsTheJvm() {
        System.exit(3);
    }
}
