package io.flakescan.shufflingjdk;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Makes a shuffling JDK from the JDK this program runs on (docs/shuffle.md):
 *
 * <pre>
 * java -cp flakescan-shuffling-jdk.jar:/usr/share/java/asm.jar io.flakescan.shufflingjdk.Prepare --out DIR [--no-image]
 * </pre>
 *
 * writes DIR/patch (the patched java.base classes and the helper classes, usable as
 * --patch-module java.base=DIR/patch), DIR/image (a jlinked runtime with class data sharing,
 * when the JDK has jmods and --no-image is not given), runs a self-check on the result, and
 * writes DIR/prepared.json last. Exit 0 on success; otherwise one line on stderr and exit 1
 * (2 for bad arguments). DIR is this program's: patch, image, work and prepared.json in it are
 * replaced.
 */
public final class Prepare {
    private static final int SUPPORTED_FEATURE = 17;
    private static final long SELF_CHECK_SECONDS = 120;

    private Prepare() {}

    public static void main(String[] args) {
        Path out = null;
        boolean image = true;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out") && i + 1 < args.length) {
                out = Path.of(args[++i]).toAbsolutePath();
            } else if (args[i].equals("--no-image")) {
                image = false;
            } else {
                out = null;
                break;
            }
        }
        if (out == null) {
            System.err.println("usage: Prepare --out DIR [--no-image]");
            System.exit(2);
        }
        try {
            String summary = prepare(out, image);
            System.out.println(summary);
        } catch (PrepareException e) {
            System.err.println("prepare: " + e.getMessage().replace('\n', ' '));
            System.exit(1);
        }
    }

    static String prepare(Path out, boolean wantImage) throws PrepareException {
        long started = System.nanoTime();
        checkJdk();
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path patch = out.resolve("patch");
        Path imageDir = out.resolve("image");
        Path work = out.resolve("work");
        Path prepared = out.resolve("prepared.json");
        try {
            Files.createDirectories(out);
            Files.deleteIfExists(prepared);
            for (Path p : List.of(patch, imageDir, work)) {
                Trees.delete(p);
            }
        } catch (IOException e) {
            throw new PrepareException("cannot clear " + out + ": " + e, e);
        }

        List<String> patched = writePatch(patch);
        boolean image = wantImage && JdkImage.possible(javaHome);
        if (image) {
            JdkImage.build(javaHome, patch, work, imageDir);
        }
        List<String> launcher = new ArrayList<>();
        if (image) {
            launcher.addAll(List.of(imageDir.resolve("bin/java").toString(), "-Xshare:on"));
        } else {
            launcher.addAll(List.of(javaHome.resolve("bin/java").toString(), "--patch-module", "java.base=" + patch));
        }
        selfCheck(launcher, work);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("java_home", javaHome.toString());
        json.put("java_version", System.getProperty("java.version"));
        json.put("image", image ? "image/bin/java" : null);
        json.put("patch_dir", "patch");
        json.put("patched", patched);
        double seconds = Math.round((System.nanoTime() - started) / 1e8) / 10.0;
        json.put("seconds", seconds);
        try {
            Trees.delete(work);
            Path temporary = out.resolve("prepared.json.tmp");
            Files.writeString(temporary, Json.write(json) + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, prepared, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new PrepareException("cannot write " + prepared + ": " + e, e);
        }
        return "prepared a shuffling JDK in " + out + ": " + patched.size() + " methods patched, "
               + (image ? "jlinked image with class data sharing" : "no image (use --patch-module)") + ", " + seconds + " s";
    }

    /** The patch table is written for one JDK feature release; a shuffling JDK cannot be shuffled again. */
    private static void checkJdk() throws PrepareException {
        int feature = Runtime.version().feature();
        if (feature != SUPPORTED_FEATURE) {
            throw new PrepareException("JDK " + Runtime.version() + " is not supported yet (the patch table is written for JDK "
                                       + SUPPORTED_FEATURE + ")");
        }
        try {
            Class.forName("java.util.FlakescanShuffle");
            throw new PrepareException(System.getProperty("java.home") + " is a shuffling JDK already: run Prepare with the plain JDK");
        } catch (ClassNotFoundException expected) {
            // the plain JDK
        }
    }

    /** Writes every patched class and the helper classes under patch/; returns the patched methods. */
    private static List<String> writePatch(Path patch) throws PrepareException {
        Map<String, List<PatchPoint>> byClass = new LinkedHashMap<>();
        List<String> patched = new ArrayList<>();
        for (PatchPoint p : PatchTable.points()) {
            byClass.computeIfAbsent(p.className(), c -> new ArrayList<>()).add(p);
            patched.add(p.id());
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (FileSystem jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of())) {
            ClassPatcher.ClassSource jdk = name -> readJdkClass(jrt, name);
            for (Map.Entry<String, List<PatchPoint>> e : byClass.entrySet()) {
                files.put(e.getKey() + ".class", ClassPatcher.patch(e.getKey(), e.getValue(), jdk));
            }
        } catch (IOException e) {
            throw new PrepareException("cannot open this JDK's classes (jrt:/): " + e, e);
        }
        files.putAll(HelperClasses.read(HelperClasses.codeSource()));
        try {
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                Path target = patch.resolve(e.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, e.getValue());
            }
        } catch (IOException e) {
            throw new PrepareException("cannot write the patched classes to " + patch + ": " + e, e);
        }
        return patched;
    }

    /** A class of the running JDK's java.base, or of another of its modules. */
    private static byte[] readJdkClass(FileSystem jrt, String internalName) throws PrepareException {
        try {
            return Files.readAllBytes(jrt.getPath("modules", "java.base", internalName + ".class"));
        } catch (NoSuchFileException e) {
            throw new PrepareException("class " + internalName.replace('/', '.') + " is missing on this JDK ("
                                       + System.getProperty("java.runtime.version") + "): this JDK version is not supported yet");
        } catch (IOException e) {
            throw new PrepareException("cannot read " + internalName + " from jrt:/: " + e, e);
        }
    }

    /**
     * Runs io.flakescan.shufflingcheck.SelfCheck on the result: a shuffled HashSet must change
     * its order and a LinkedHashMap must keep its own.
     */
    private static void selfCheck(List<String> launcher, Path work) throws PrepareException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of("-cp", HelperClasses.codeSource().toString(), "io.flakescan.shufflingcheck.SelfCheck"));
        String output;
        try {
            Files.createDirectories(work);
            Path log = work.resolve("self-check.log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(SELF_CHECK_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new PrepareException("the self-check did not finish in " + SELF_CHECK_SECONDS + " s: " + String.join(" ", command));
            }
            output = Files.readString(log, StandardCharsets.UTF_8).strip();
            if (process.exitValue() != 0) {
                String last = output.isEmpty() ? "no output" : output.substring(output.lastIndexOf('\n') + 1);
                throw new PrepareException("the self-check failed (exit " + process.exitValue() + "): " + last);
            }
        } catch (IOException e) {
            throw new PrepareException("cannot run the self-check: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrepareException("interrupted during the self-check", e);
        }
        if (!output.endsWith("self-check ok")) {
            throw new PrepareException("the self-check said: " + output.replace('\n', ' '));
        }
    }
}
