package io.flakescan.threads.rewrite;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Class facts the rewriter needs (super classes, whether a field is final or synthetic) read
 * from class files as resources of the defining loader, never by loading classes: loading
 * inside a transformer can recurse into the class being defined. Unknown classes answer
 * "unknown" (null, -1), and callers take the conservative branch.
 */
final class Hierarchy {
    static final class Info {
        String superName;
        String[] interfaces;
        boolean isInterface;
        final Map<String, Integer> fields = new HashMap<>();
    }

    private static final Map<ClassLoader, Hierarchy> BY_LOADER = new WeakHashMap<>();
    private final ClassLoader loader;
    private final Map<String, Info> infos = new HashMap<>();

    private Hierarchy(ClassLoader loader) {
        this.loader = loader;
    }

    static synchronized Hierarchy of(ClassLoader loader) {
        return BY_LOADER.computeIfAbsent(loader, Hierarchy::new);
    }

    synchronized Info info(String name) {
        if (infos.containsKey(name)) return infos.get(name);
        Info info = read(name);
        infos.put(name, info);
        return info;
    }

    private Info read(String name) {
        try (InputStream in = open(name + ".class")) {
            if (in == null) return null;
            Info info = new Info();
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visit(int version, int access, String n, String sig, String superName, String[] interfaces) {
                    info.superName = superName;
                    info.interfaces = interfaces;
                    info.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
                }

                @Override
                public FieldVisitor visitField(int access, String n, String desc, String sig, Object value) {
                    info.fields.put(n, access);
                    return null;
                }
            }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return info;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private InputStream open(String resource) {
        InputStream in = loader == null ? null : loader.getResourceAsStream(resource);
        return in != null ? in : ClassLoader.getSystemResourceAsStream(resource);
    }

    /** Whether `name` is `ancestor` or extends it (classes only); false when unknown. */
    boolean extendsClass(String name, String ancestor) {
        for (int guard = 0; name != null && guard < 64; guard++) {
            if (name.equals(ancestor)) return true;
            Info i = info(name);
            name = i == null ? null : i.superName;
        }
        return false;
    }

    /** Whether class or interface `name` implements (or extends) interface `itf`; false when unknown. */
    boolean implementsInterface(String name, String itf) {
        return implementsInterface(name, itf, 0);
    }

    private boolean implementsInterface(String name, String itf, int depth) {
        if (name == null || depth > 64) return false;
        if (name.equals(itf)) return true;
        Info i = info(name);
        if (i == null) return false;
        if (i.interfaces != null)
            for (String sup : i.interfaces) if (implementsInterface(sup, itf, depth + 1)) return true;
        return implementsInterface(i.superName, itf, depth + 1);
    }

    /** The access flags of field `field` as `owner` resolves it (its class, then supers), or -1. */
    int fieldAccess(String owner, String field) {
        for (int guard = 0; owner != null && guard < 64; guard++) {
            Info i = info(owner);
            if (i == null) return -1;
            Integer access = i.fields.get(field);
            if (access != null) return access;
            if (i.interfaces != null) {
                for (String itf : i.interfaces) {
                    int a = fieldAccess(itf, field);
                    if (a >= 0) return a;
                }
            }
            owner = i.superName;
        }
        return -1;
    }

    /** ClassWriter.getCommonSuperClass without loading classes; java/lang/Object when unknown. */
    String commonSuperClass(String a, String b) {
        Info ia = info(a);
        Info ib = info(b);
        if (ia == null || ib == null || ia.isInterface || ib.isInterface) return "java/lang/Object";
        if (extendsClass(b, a)) return a;
        if (extendsClass(a, b)) return b;
        String up = ia.superName;
        for (int guard = 0; up != null && guard < 64; guard++) {
            if (extendsClass(b, up)) return up;
            Info i = info(up);
            up = i == null ? null : i.superName;
        }
        return "java/lang/Object";
    }
}
