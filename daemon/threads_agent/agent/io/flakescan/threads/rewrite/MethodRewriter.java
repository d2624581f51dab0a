package io.flakescan.threads.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Rewrites one method: inserts a scheduling point before each operation the scheduler models
 * (docs/threads.md, "How the agent works"). Every inserted call passes the operation's source
 * site ("pkg.C.m(C.java:12)") as a constant. Stack shapes are kept: each insertion leaves the
 * operand stack as it found it, so the original instructions run unchanged after it.
 */
final class MethodRewriter {
    static final String SCHED = "io/flakescan/threads/Sched";
    private static final String OBJ_STR_STR = "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)V";

    private final ClassNode owner;
    private final MethodNode method;
    private final Hierarchy hierarchy;
    private final boolean constructor;
    private int line = -1;
    private boolean changed;
    /** Calls on objects that never leave this method (null: none); worked out before anything changes. */
    private ConfinedObjects confined;

    MethodRewriter(ClassNode owner, MethodNode method, Hierarchy hierarchy) {
        this.owner = owner;
        this.method = method;
        this.hierarchy = hierarchy;
        this.constructor = method.name.equals("<init>");
    }

    /** Rewrites the method; true when anything changed. */
    boolean rewrite() {
        if (method.instructions.size() == 0 || method.name.equals("<clinit>") || (method.access & Opcodes.ACC_BRIDGE) != 0) return false;
        confined = ConfinedObjects.of(owner.name, method);
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (insn instanceof LineNumberNode) line = ((LineNumberNode) insn).line;
            else if (insn.getOpcode() == Opcodes.MONITORENTER) monitor(insn, "monitorEnter", Opcodes.MONITORENTER);
            else if (insn.getOpcode() == Opcodes.MONITOREXIT) monitor(insn, "monitorExit", Opcodes.MONITOREXIT);
            else if (insn instanceof FieldInsnNode) field((FieldInsnNode) insn);
            else if (insn instanceof MethodInsnNode) call((MethodInsnNode) insn);
        }
        if ((method.access & Opcodes.ACC_SYNCHRONIZED) != 0) wrapSynchronized();
        return changed;
    }

    private String site() {
        String file = owner.sourceFile == null ? "Unknown Source" : line >= 0 ? owner.sourceFile + ":" + line : owner.sourceFile;
        return owner.name.replace('/', '.') + "." + method.name + "(" + file + ")";
    }

    /**
     * [obj] -> DUP, site, Sched.monitorEnter(obj, site) -> true: the real instruction; false: POP.
     * The model holds the monitor of a controlled thread; others take the real one.
     */
    private void monitor(AbstractInsnNode insn, String hook, int real) {
        method.instructions.insertBefore(insn, conditionalMonitor(hook, real, site()));
        method.instructions.remove(insn);
        changed = true;
    }

    private static InsnList conditionalMonitor(String hook, int real, String site) {
        InsnList l = new InsnList();
        LabelNode skip = new LabelNode();
        LabelNode done = new LabelNode();
        l.add(new InsnNode(Opcodes.DUP));
        l.add(new LdcInsnNode(site));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, hook, "(Ljava/lang/Object;Ljava/lang/String;)Z", false));
        l.add(new JumpInsnNode(Opcodes.IFEQ, skip));
        l.add(new InsnNode(real));
        l.add(new JumpInsnNode(Opcodes.GOTO, done));
        l.add(skip);
        l.add(new InsnNode(Opcodes.POP));
        l.add(done);
        return l;
    }

    private void field(FieldInsnNode f) {
        if (Rewriter.excludedInternal(f.owner)) return;
        boolean isStatic = f.getOpcode() == Opcodes.GETSTATIC || f.getOpcode() == Opcodes.PUTSTATIC;
        // In a constructor `this` may not be initialised yet, and nobody else sees it: skip its fields.
        if (constructor && !isStatic && f.owner.equals(owner.name)) return;
        int access = hierarchy.fieldAccess(f.owner, f.name);
        if (access >= 0 && (access & (Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC)) != 0) return;
        String name = f.owner.replace('/', '.') + "." + f.name;
        InsnList l = new InsnList();
        switch (f.getOpcode()) {
            case Opcodes.GETSTATIC: case Opcodes.PUTSTATIC:
                l.add(new LdcInsnNode(name));
                l.add(new LdcInsnNode(site()));
                l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, f.getOpcode() == Opcodes.GETSTATIC ? "staticRead" : "staticWrite",
                        "(Ljava/lang/String;Ljava/lang/String;)V", false));
                break;
            case Opcodes.GETFIELD:
                l.add(new InsnNode(Opcodes.DUP));
                hook(l, "fieldRead", name);
                break;
            default:  // PUTFIELD: [obj, value] -> [obj, value, obj]
                if (Type.getType(f.desc).getSize() == 2) {
                    l.add(new InsnNode(Opcodes.DUP2_X1));
                    l.add(new InsnNode(Opcodes.POP2));
                    l.add(new InsnNode(Opcodes.DUP_X2));
                } else {
                    l.add(new InsnNode(Opcodes.DUP2));
                    l.add(new InsnNode(Opcodes.POP));
                }
                hook(l, "fieldWrite", name);
        }
        method.instructions.insertBefore(f, l);
        changed = true;
    }

    private void hook(InsnList l, String hook, String text) {
        l.add(new LdcInsnNode(text));
        l.add(new LdcInsnNode(site()));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, hook, OBJ_STR_STR, false));
    }

    private void call(MethodInsnNode call) {
        CallTable.Rule rule = CallTable.lookup(call, hierarchy);
        if (rule == null) return;
        InsnList l = new InsnList();
        switch (rule.action) {
            case CLOCK:
                method.instructions.set(call, new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, rule.target, call.desc, false));
                changed = true;
                return;
            case REPLACE:
                method.instructions.insertBefore(call, new LdcInsnNode(site()));
                method.instructions.set(call, new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, rule.target,
                        CallTable.replacementDesc(call, rule), false));
                changed = true;
                return;
            case HAND_OFF_ARGUMENT:  // [..., executor]: the executor is on top
                l.add(new InsnNode(Opcodes.DUP));
                hook(l, "before", rule.target);
                break;
            case BLOCKING:
                l.add(new LdcInsnNode(rule.target));
                l.add(new LdcInsnNode(site()));
                l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SCHED, "blocking", "(Ljava/lang/String;Ljava/lang/String;)V", false));
                break;
            case UNSAFE_CALL:  // a read or write step on the receiver, unless it never leaves this thread
                if (confined != null && confined.receiverConfined(call)) return;
                receiverPoint(l, call, "call", rule.target);
                break;
            default:  // BEFORE: a point on the receiver, under the call's arguments
                receiverPoint(l, call, "before", rule.target);
        }
        method.instructions.insertBefore(call, l);
        changed = true;
    }

    /** Stores the arguments in fresh locals, passes the receiver to Sched.before, reloads them. */
    private void receiverPoint(InsnList l, MethodInsnNode call, String hook, String op) {
        Type[] args = Type.getArgumentTypes(call.desc);
        int[] slots = new int[args.length];
        for (int i = 0; i < args.length; i++) {
            slots[i] = method.maxLocals;
            method.maxLocals += args[i].getSize();
        }
        for (int i = args.length - 1; i >= 0; i--) l.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        l.add(new InsnNode(Opcodes.DUP));
        hook(l, hook, op);
        for (int i = 0; i < args.length; i++) l.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
    }

    /**
     * A synchronized method loses ACC_SYNCHRONIZED and takes its monitor the way a
     * synchronized block does: enter at the start, exit before every return and in a catch-all
     * handler (added last, so the method's own handlers keep precedence).
     */
    private void wrapSynchronized() {
        method.access &= ~Opcodes.ACC_SYNCHRONIZED;
        boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
        int firstLine = -1;
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (insn instanceof LineNumberNode) {
                firstLine = ((LineNumberNode) insn).line;
                break;
            }
        }
        line = firstLine;
        String site = site();
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        InsnList enter = new InsnList();
        enter.add(monitorObject(isStatic));
        enter.add(conditionalMonitor("monitorEnter", Opcodes.MONITORENTER, site));
        enter.add(start);
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            int op = insn.getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) method.instructions.insertBefore(insn, exit(isStatic, site));
        }
        method.instructions.insert(enter);
        method.instructions.add(end);
        method.instructions.add(handler);
        method.instructions.add(exit(isStatic, site));
        method.instructions.add(new InsnNode(Opcodes.ATHROW));
        method.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
        changed = true;
    }

    private InsnList exit(boolean isStatic, String site) {
        InsnList l = new InsnList();
        l.add(monitorObject(isStatic));
        l.add(conditionalMonitor("monitorExit", Opcodes.MONITOREXIT, site));
        return l;
    }

    private InsnList monitorObject(boolean isStatic) {
        InsnList l = new InsnList();
        if (isStatic) l.add(new LdcInsnNode(Type.getObjectType(owner.name)));
        else l.add(new VarInsnNode(Opcodes.ALOAD, 0));
        return l;
    }
}
