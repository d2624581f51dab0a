package example.shuffle.app;

import java.util.Objects;

/**
 * An open file handle. Two handles on the same path are equal (they name the same file),
 * but each one is a separate descriptor that must be closed.
 */
public final class Handle {
    private final String path;
    private final int descriptor;

    Handle(String path, int descriptor) {
        this.path = path;
        this.descriptor = descriptor;
    }

    public String path() {
        return path;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Handle && ((Handle) other).path.equals(path);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path);
    }

    @Override
    public String toString() {
        return path + "#" + descriptor;
    }
}
