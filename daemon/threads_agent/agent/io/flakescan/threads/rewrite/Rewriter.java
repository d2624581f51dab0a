package io.flakescan.threads.rewrite;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.JSRInlinerAdapter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The agent's ClassFileTransformer: rewrites the project's classes as they are loaded (any
 * loader but the bootstrap and platform loaders and the rewriter's own), never the JDK, the
 * test frameworks, flakescan or the libraries that generate code. With
 * flakescan.threads.include only classes under those prefixes, and still none of those. Class
 * files older than Java 6 are rewritten too, their subroutines (JSR/RET) inlined and their
 * version raised to 50. A class that cannot be rewritten (too large a method) is loaded as it
 * is, with one line on stderr.
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
        if (excludedInternal(name)) return false;  // also when an include prefix names it: ours, JUnit's, the JDK's
        if (include.isEmpty()) return true;
        for (String prefix : include) if (name.startsWith(prefix)) return true;
        return false;
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
        ClassNode node = new ClassNode();
        if (reader.readUnsignedShort(6) < Opcodes.V1_6) {
            // Java 5 and older (many old Maven jars): JSR/RET may occur, which version 50's
            // stack map frames cannot describe, so subroutines are inlined and the class is
            // raised to version 50; its frames are computed below as for any other class.
            reader.accept(new ClassVisitor(Opcodes.ASM9, node) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                    MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                    return new JSRInlinerAdapter(mv, access, name, descriptor, signature, exceptions);
                }
            }, ClassReader.SKIP_FRAMES);
            node.version = Opcodes.V1_6;
        } else {
            reader.accept(node, ClassReader.SKIP_FRAMES);
        }
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
