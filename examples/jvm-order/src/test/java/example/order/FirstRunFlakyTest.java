package example.order;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** JUnit 5. failsOnFirstRunOnly is flaky but not order-dependent: it fails the first time it
 *  runs on this machine (a marker file outside the JVM, like a cold cache or a port taken by a
 *  previous process) and passes afterwards, whatever the order. The marker lives in the
 *  folder named by -Dflakescan.example.state, else $FLAKESCAN_EXAMPLE_STATE, else
 *  java.io.tmpdir; delete it to re-arm. */
class FirstRunFlakyTest {
    static Path marker() {
        String dir = System.getProperty("flakescan.example.state");
        if (dir == null || dir.isEmpty()) dir = System.getenv("FLAKESCAN_EXAMPLE_STATE");
        if (dir == null || dir.isEmpty()) dir = System.getProperty("java.io.tmpdir");
        return Paths.get(dir, "flakescan-jvm-order-first-run.marker");
    }

    @Test
    void failsOnFirstRunOnly() throws IOException {
        try {
            Files.createFile(marker());  // atomic: exactly one run creates it
        } catch (FileAlreadyExistsException alreadyRan) {
            return;
        }
        fail("first run on this machine: warming up");
    }
}
