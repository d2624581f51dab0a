package io.flakescan.shufflingjdk;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import io.flakescan.shufflingjdk.PatchPoint.Kind;
import io.flakescan.shufflingjdk.PatchPoint.Operand;

/**
 * Applies a class's patch points to its bytes with ASM. Only the patched methods are rewritten
 * (and get new stack map frames); every other method is copied as it was. Nothing is added to
 * the class: no field, no method. Each patch starts with one read of FlakescanShuffle.active:
 *
 * <pre>
 * WRAP_RETURN, before every areturn:      REDIRECT_ENTRY, at the start:
 *   getstatic active; ifeq L               getstatic active; ifeq L
 *   owner; ldc api; ldc handler             owner; aux; arg-or-null; ldc api; ldc handler
 *   invokestatic patchedReturn              invokestatic patchedEntry; dup; ifnull N
 *   checkcast ReturnType                    [pop; return] or [checkcast String; areturn]
 * L: areturn                              N: pop
 *                                         L: original body
 * </pre>
 */
final class ClassPatcher {
    static final String SHUFFLE = "java/util/FlakescanShuffle";
    private static final String RETURN_HOOK =
        "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;";
    private static final String ENTRY_HOOK =
        "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;";

    /** Reads a class of the target JDK by internal name; throws when it has none. */
    interface ClassSource {
        byte[] read(String internalName) throws PrepareException;
    }

    private ClassPatcher() {}

    /** The patched bytes of one class; fails naming the first point that does not fit this JDK. */
    static byte[] patch(String className, List<PatchPoint> points, ClassSource jdk) throws PrepareException {
        byte[] original = jdk.read(className);
        Map<String, PatchPoint> byMethod = new HashMap<>();
        for (PatchPoint p : points) {
            checkShape(p);
            checkOperand(p, p.owner(), jdk);
            checkOperand(p, p.aux(), jdk);
            byMethod.put(p.method() + p.descriptor(), p);
        }
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_FRAMES);
        Map<String, Integer> patchedReturns = new HashMap<>();
        ClassVisitor visitor = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                PatchPoint p = byMethod.get(name + desc);
                if (p == null) {
                    return mv;
                }
                if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                    patchedReturns.put(p.id(), -1);
                    return mv;
                }
                patchedReturns.put(p.id(), 0);
                return p.kind() == Kind.WRAP_RETURN ? new WrapReturns(mv, p, patchedReturns) : new RedirectEntry(mv, p);
            }
        };
        try {
            reader.accept(visitor, 0);
        } catch (RuntimeException e) {
            throw new PrepareException("cannot patch " + className.replace('/', '.') + ": " + e, e);
        }
        for (PatchPoint p : points) {
            Integer seen = patchedReturns.get(p.id());
            if (seen == null) {
                throw missing(p.id() + " is missing");
            }
            if (seen < 0) {
                throw missing(p.id() + " is static, abstract or native");
            }
            if (p.kind() == Kind.WRAP_RETURN && seen == 0) {
                throw missing(p.id() + " has no areturn");
            }
        }
        return writer.toByteArray();
    }

    private static PrepareException missing(String what) {
        return new PrepareException(what + " on this JDK (" + System.getProperty("java.runtime.version")
                                    + "): this JDK version is not supported yet");
    }

    private static void checkShape(PatchPoint p) throws PrepareException {
        Type method = Type.getMethodType(p.descriptor());
        int sort = method.getReturnType().getSort();
        if (p.kind() == Kind.WRAP_RETURN && sort != Type.OBJECT && sort != Type.ARRAY) {
            throw new PrepareException("patch table: " + p.id() + " does not return an object");
        }
        if (p.kind() == Kind.REDIRECT_ENTRY) {
            Type[] args = method.getArgumentTypes();
            boolean returns = sort == Type.VOID || method.getReturnType().getDescriptor().equals("Ljava/lang/String;");
            if (!returns || args.length > 1 || (args.length == 1 && args[0].getSort() != Type.OBJECT)) {
                throw new PrepareException("patch table: " + p.id() + " cannot be redirected (void or String, at most one object argument)");
            }
        }
    }

    /** A field operand must exist, with that type, in the class the table says declares it. */
    private static void checkOperand(PatchPoint p, Operand o, ClassSource jdk) throws PrepareException {
        if (!o.isField()) {
            return;
        }
        boolean[] found = {false};
        new ClassReader(jdk.read(o.declaredIn())).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
                if (name.equals(o.field()) && desc.equals(o.descriptor()) && (access & Opcodes.ACC_STATIC) == 0) {
                    found[0] = true;
                }
                return null;
            }
        }, ClassReader.SKIP_CODE);
        if (!found[0]) {
            throw missing("field " + o.declaredIn().replace('/', '.') + "." + o.field() + " " + o.descriptor() + " (used by " + p.id() + ") is missing");
        }
    }

    private static void push(MethodVisitor mv, Operand o) {
        if (o == Operand.NONE) {
            mv.visitInsn(Opcodes.ACONST_NULL);
            return;
        }
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        if (o.isField()) {
            mv.visitFieldInsn(Opcodes.GETFIELD, o.declaredIn(), o.field(), o.descriptor());
        }
    }

    private static final class WrapReturns extends MethodVisitor {
        private final PatchPoint point;
        private final String returnType;
        private final Map<String, Integer> patchedReturns;

        WrapReturns(MethodVisitor mv, PatchPoint point, Map<String, Integer> patchedReturns) {
            super(Opcodes.ASM9, mv);
            this.point = point;
            this.returnType = Type.getMethodType(point.descriptor()).getReturnType().getInternalName();
            this.patchedReturns = patchedReturns;
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.ARETURN) {
                Label plain = new Label();
                super.visitFieldInsn(Opcodes.GETSTATIC, SHUFFLE, "active", "Z");
                super.visitJumpInsn(Opcodes.IFEQ, plain);
                push(mv, point.owner());
                super.visitLdcInsn(point.api());
                super.visitLdcInsn(point.handler());
                super.visitMethodInsn(Opcodes.INVOKESTATIC, SHUFFLE, "patchedReturn", RETURN_HOOK, false);
                super.visitTypeInsn(Opcodes.CHECKCAST, returnType);
                super.visitLabel(plain);
                patchedReturns.merge(point.id(), 1, Integer::sum);
            }
            super.visitInsn(opcode);
        }
    }

    private static final class RedirectEntry extends MethodVisitor {
        private final PatchPoint point;

        RedirectEntry(MethodVisitor mv, PatchPoint point) {
            super(Opcodes.ASM9, mv);
            this.point = point;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Type method = Type.getMethodType(point.descriptor());
            Label plain = new Label();
            Label declined = new Label();
            super.visitFieldInsn(Opcodes.GETSTATIC, SHUFFLE, "active", "Z");
            super.visitJumpInsn(Opcodes.IFEQ, plain);
            push(mv, point.owner());
            push(mv, point.aux());
            if (method.getArgumentTypes().length == 1) {
                super.visitVarInsn(Opcodes.ALOAD, 1);
            } else {
                super.visitInsn(Opcodes.ACONST_NULL);
            }
            super.visitLdcInsn(point.api());
            super.visitLdcInsn(point.handler());
            super.visitMethodInsn(Opcodes.INVOKESTATIC, SHUFFLE, "patchedEntry", ENTRY_HOOK, false);
            super.visitInsn(Opcodes.DUP);
            super.visitJumpInsn(Opcodes.IFNULL, declined);
            if (method.getReturnType().getSort() == Type.VOID) {
                super.visitInsn(Opcodes.POP);
                super.visitInsn(Opcodes.RETURN);
            } else {
                super.visitTypeInsn(Opcodes.CHECKCAST, method.getReturnType().getInternalName());
                super.visitInsn(Opcodes.ARETURN);
            }
            super.visitLabel(declined);
            super.visitInsn(Opcodes.POP);
            super.visitLabel(plain);
        }
    }
}
