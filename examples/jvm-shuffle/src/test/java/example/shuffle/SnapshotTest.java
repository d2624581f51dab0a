package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;

import example.shuffle.app.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JUnit 5. File.list() in test code. The order of a directory listing depends on the file
 * system, so no test here compares it with a literal.
 */
class SnapshotTest {
    private static final List<String> FILES = List.of("orders.csv", "customers.csv", "stock.csv", "prices.csv");

    /** A fresh directory per test (a field, so that test ids stay Class#method). */
    @TempDir
    Path dir;

    private void export() throws IOException {
        for (String name : FILES) {
            Files.writeString(dir.resolve(name), "id\n");
        }
    }

    /**
     * Implementation-dependent on any file system: expects the snapshot (a java.nio
     * directory stream) in the same order as File.list() of the same, unchanged directory. On
     * Linux both read it with readdir(3) and agree; File.list() promises no order. Fixed by
     * comparing as multisets.
     */
    @Test
    void recordsEntriesInListingOrder() throws IOException {
        export();
        assertIterableEquals(Snapshot.of(dir).names(), Arrays.asList(dir.toFile().list())); // shuffle-site
    }

    /** Twin: the same entries compared as a set. */
    @Test
    void recordsEveryEntry() throws IOException {
        export();
        Set<String> listed = new HashSet<>(Arrays.asList(dir.toFile().list()));
        assertEquals(listed, new HashSet<>(Snapshot.of(dir).names()));
        assertEquals(new HashSet<>(FILES), listed);
    }
}
