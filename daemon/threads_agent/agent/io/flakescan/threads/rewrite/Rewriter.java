package io.flakescan.threads.rewrite;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The agent's ClassFileTransformer: rewrites the project's classes as they are loaded (any
 * loader but the bootstrap and platform loaders and the rewriter's own), never the JDK, the
 * test frameworks, flakescan or the libraries that generate code. With
 * flakescan.threads.include only classes under those prefixes. A class that cannot be
 * rewritten (too large a method, class files older than Java 6) is loaded as it is, with one
 * line on stderr.
 */
public final class Rewriter implements ClassFileTransformer {
    private static final String[] EXCLUDED = {"java/", "javax/", "jdk/", "sun/", "com/sun/", "org/junit/", "junit/",
        "org/hamcrest/", "org/opentest4j/", "org/apiguardian/", "io/flakescan/", "org/objectweb/asm/", "net/bytebuddy/",
        "org/mockito/", "kotlin/"};

    private final List<String> include = new ArrayList<>();
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    public Rewriter(String include) {
        if (include != null)
            for (String prefix : include.split(","))
                if (!prefix.isBlank()) this.include.add(prefix.trim().replace('.', '/'));
    }

    static boolean excludedInternal(String name) {
        for (String prefix : EXCLUDED) if (name.startsWith(prefix)) return true;
        return false;
    }

    private boolean wanted(String name) {
        if (name.contains("$$Lambda") || name.contains("$$EnhancerBy") || name.contains("$MockitoMock$")) return false;
        if (!include.isEmpty()) {
            for (String prefix : include) if (name.startsWith(prefix)) return true;
            return false;
        }
        return !excludedInternal(name);
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        if (loader == null || loader == platform || loader == getClass().getClassLoader() || name == null || redefined != null) return null;
        if (!wanted(name)) return null;
        try {
            return rewrite(loader, bytes);
        } catch (Throwable e) {
            System.err.println("flakescan threads: " + name.replace('/', '.') + " is not rewritten: " + e);
            return null;
        }
    }

    static byte[] rewrite(ClassLoader loader, byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        if (reader.readUnsignedShort(6) < 50) return null;  // no stack map frames to compute from
        ClassNode node = new ClassNode();
        reader.accept(node, ClassReader.SKIP_FRAMES);
        Hierarchy hierarchy = Hierarchy.of(loader);
        boolean changed = false;
        for (MethodNode m : node.methods) changed |= new MethodRewriter(node, m, hierarchy).rewrite();
        if (!changed) return null;
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return hierarchy.commonSuperClass(a, b);
            }
        };
        node.accept(writer);
        return writer.toByteArray();
    }
}
