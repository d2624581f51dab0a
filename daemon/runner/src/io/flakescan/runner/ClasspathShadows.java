package io.flakescan.runner;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Whether the class directories of this JVM's classpath could move behind its jars without
 * changing what any class or resource lookup finds: true when no file of a directory is also
 * an entry of a jar. The daemon asks (discover mode) before it puts a project's directories
 * last, which class data sharing needs (HotSpot archives jars only, and a runner JVM's
 * classpath must start with the archived jars). module-info.class is left out: on the
 * classpath it is never looked up.
 */
final class ClasspathShadows {
    private ClasspathShadows() {}

    /** The first file found in a directory and a jar ("name in dir and jar"), or null when none is. */
    static String first() throws IOException {
        Map<String, String> inDirs = new HashMap<>();
        String[] entries = System.getProperty("java.class.path", "").split(File.pathSeparator);
        for (String entry : entries) {
            Path dir = Paths.get(entry);
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(Files::isRegularFile).forEach(f -> {
                    String name = dir.relativize(f).toString().replace(File.separatorChar, '/');
                    if (!name.equals("module-info.class")) inDirs.putIfAbsent(name, entry);
                });
            }
        }
        if (inDirs.isEmpty()) return null;
        for (String entry : entries) {
            if (!Files.isRegularFile(Paths.get(entry))) continue;
            try (JarFile jar = new JarFile(entry)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                    JarEntry je = e.nextElement();
                    String dir = je.isDirectory() ? null : inDirs.get(je.getName());
                    if (dir != null) return je.getName() + " in " + dir + " and " + entry;
                }
            } catch (IOException notAJar) {
                // not a zip file: the JVM ignores it too
            }
        }
        return null;
    }
}
