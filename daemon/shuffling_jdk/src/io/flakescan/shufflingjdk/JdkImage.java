package io.flakescan.shufflingjdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * The jlinked runtime: java.base.jmod with the patched classes laid over it, linked with every
 * other module of the JDK and a default class data sharing archive. Why an image: the plain
 * JDK with --patch-module java.base turns class data sharing off altogether, and every JVM of
 * a scan then starts much slower; the image keeps it. The tools are the target JDK's own
 * (jmod, jlink), run in this JVM through ToolProvider.
 */
final class JdkImage {
    private JdkImage() {}

    /** Whether the JDK has the jmods an image is made from (a JRE or a jlinked JDK has none). */
    static boolean possible(Path javaHome) {
        return Files.isRegularFile(javaHome.resolve("jmods/java.base.jmod"));
    }

    static void build(Path javaHome, Path patchDir, Path work, Path image) throws PrepareException {
        Path jmods = javaHome.resolve("jmods");
        Path baseJmod = jmods.resolve("java.base.jmod");
        ToolProvider jmod = tool("jmod");
        ToolProvider jlink = tool("jlink");

        String description = run(jmod, "describe", baseJmod.toString());
        String version = described(description, "java.base@", baseJmod);
        String platform = described(description, "platform ", baseJmod);

        Path extracted = work.resolve("java.base");
        run(jmod, "extract", "--dir", extracted.toString(), baseJmod.toString());
        try {
            Trees.copy(patchDir, extracted.resolve("classes"));
        } catch (IOException e) {
            throw new PrepareException("cannot lay the patched classes over java.base: " + e, e);
        }

        Path newJmods = work.resolve("jmods");
        List<String> create = new ArrayList<>(List.of("create", "--class-path", extracted.resolve("classes").toString()));
        String[][] sections = {{"--libs", "lib"}, {"--cmds", "bin"}, {"--config", "conf"}, {"--header-files", "include"},
                               {"--legal-notices", "legal"}, {"--man-pages", "man"}};
        for (String[] s : sections) {
            if (Files.isDirectory(extracted.resolve(s[1]))) {
                create.add(s[0]);
                create.add(extracted.resolve(s[1]).toString());
            }
        }
        create.addAll(List.of("--module-version", version, "--target-platform", platform,
                              newJmods.resolve("java.base.jmod").toString()));
        try {
            Files.createDirectories(newJmods);
        } catch (IOException e) {
            throw new PrepareException("cannot create " + newJmods + ": " + e, e);
        }
        run(jmod, create.toArray(new String[0]));

        // The patched java.base comes first on the module path and hides the JDK's own.
        run(jlink, "--module-path", newJmods + java.io.File.pathSeparator + jmods,
            "--add-modules", "ALL-MODULE-PATH", "--no-header-files", "--no-man-pages",
            "--generate-cds-archive", "--output", image.toString());
    }

    private static ToolProvider tool(String name) throws PrepareException {
        return ToolProvider.findFirst(name).orElseThrow(() -> new PrepareException("this JDK has no " + name + " tool"));
    }

    /** Runs a tool; its output is returned, or its last line becomes the failure message. */
    private static String run(ToolProvider tool, String... args) throws PrepareException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc;
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            rc = tool.run(print, print, args);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        if (rc != 0) {
            String said = text.strip();
            said = said.isEmpty() ? "no output" : said.substring(said.lastIndexOf('\n') + 1);
            throw new PrepareException(tool.name() + " " + args[0] + " failed (exit " + rc + "): " + said);
        }
        return text;
    }

    /** The rest of the line of `jmod describe` that starts with prefix ("java.base@17.0.15", "platform linux-amd64"). */
    private static String described(String description, String prefix, Path jmod) throws PrepareException {
        for (String line : description.split("\n")) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).strip();
            }
        }
        throw new PrepareException("jmod describe " + jmod + " names no '" + prefix.strip() + "'");
    }
}
