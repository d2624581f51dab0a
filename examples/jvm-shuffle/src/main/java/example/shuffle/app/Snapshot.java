package example.shuffle.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a directory held at one moment: its entry names, in the order the directory stream
 * returned them, for backups to compare later runs against.
 */
public final class Snapshot {
    private final List<String> names;

    private Snapshot(List<String> names) {
        this.names = names;
    }

    public static Snapshot of(Path directory) {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Snapshot(names);
    }

    public List<String> names() {
        return Collections.unmodifiableList(names);
    }
}
