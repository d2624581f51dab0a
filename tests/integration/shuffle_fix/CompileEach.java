import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles the .java files of each folder on its own, in one JVM (a javac process per candidate
 * would take a second each): java CompileEach.java <classpath> <folder>... prints "ok <folder>"
 * or "failed <folder>" followed by javac's messages, one folder after the other.
 */
public class CompileEach {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classpath = args[0];
        // one file manager for all: it reads the jars of the classpath once
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
        for (int i = 1; i < args.length; i++) {
            Path folder = Path.of(args[i]);
            List<File> sources;
            try (Stream<Path> files = Files.list(folder)) {
                sources = files.filter(p -> p.toString().endsWith(".java")).map(Path::toFile).sorted().collect(Collectors.toList());
            }
            Path classes = folder.resolve("classes");
            Files.createDirectories(classes);
            StringWriter messages = new StringWriter();
            boolean ok;
            ok = javac.getTask(messages, fm, null,
                    List.of("-proc:none", "-encoding", "UTF-8", "-cp", classpath, "-d", classes.toString()), null,
                    fm.getJavaFileObjectsFromFiles(sources)).call();
            System.out.println((ok ? "ok " : "failed ") + folder);
            if (!ok) System.out.print(messages);
        }
        }
    }
}
