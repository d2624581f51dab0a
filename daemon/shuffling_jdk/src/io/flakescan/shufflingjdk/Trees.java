package io.flakescan.shufflingjdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Folder copies and removals (symbolic links are never followed). */
final class Trees {
    private Trees() {}

    /** Copies every file under from to the same place under to, replacing what is there. */
    static void copy(Path from, Path to) throws IOException {
        for (Path p : list(from)) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(target);
            } else {
                Files.createDirectories(target.getParent());
                Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    /** Removes path and everything under it; nothing when it does not exist. */
    static void delete(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> all = list(path);
        all.sort(Comparator.reverseOrder());  // children before their folder
        for (Path p : all) {
            Files.delete(p);
        }
    }

    private static List<Path> list(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.collect(Collectors.toList());
        }
    }
}
