package io.flakescan.shufflingjdk;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The helper classes (java.util.FlakescanShuffle and its package-private helpers), compiled at
 * build time with --patch-module java.base and carried in this program's jar as resources under
 * "java.base/" (a plain folder works too, for development).
 */
final class HelperClasses {
    static final String PREFIX = "java.base/";

    private HelperClasses() {}

    /** This program's jar or classes folder. */
    static Path codeSource() throws PrepareException {
        try {
            return Path.of(HelperClasses.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new PrepareException("cannot tell where this program was loaded from: " + e, e);
        }
    }

    /** Class file path in java.base ("java/util/FlakescanShuffle.class") to its bytes. */
    static Map<String, byte[]> read(Path source) throws PrepareException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try {
            if (Files.isDirectory(source)) {
                Path root = source.resolve(PREFIX);
                if (Files.isDirectory(root)) {
                    try (Stream<Path> paths = Files.walk(root)) {
                        for (Path p : (Iterable<Path>) paths.filter(q -> q.toString().endsWith(".class")).sorted()::iterator) {
                            classes.put(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
                        }
                    }
                }
            } else {
                try (JarFile jar = new JarFile(source.toFile())) {
                    for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                        if (e.getName().startsWith(PREFIX) && e.getName().endsWith(".class")) {
                            classes.put(e.getName().substring(PREFIX.length()), jar.getInputStream(e).readAllBytes());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new PrepareException("cannot read the helper classes from " + source + ": " + e, e);
        }
        if (!classes.containsKey(ClassPatcher.SHUFFLE + ".class")) {
            throw new PrepareException(source + " has no " + PREFIX + ClassPatcher.SHUFFLE + ".class (the helper classes)");
        }
        return classes;
    }
}
