package io.flakescan.threads.rewrite;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Calls on objects no other thread can see yet, which need no step: a HashMap, ArrayList or
 * StringBuilder created in this method (NEW) that has not left it when the call runs. An object
 * leaves when it (or something a call on it returned, an iterator or a view) is stored in a
 * field or an array, returned, thrown, passed to any method or captured by a lambda; before that
 * it may only be kept in locals and be the receiver of calls on the JDK types UnsafeCalls names
 * (whose code does not hand `this` to other threads). A call is confined when no instruction
 * that lets its receiver leave can run before it (none reaches it in the method's control flow):
 * a table filled in a loop and then returned is filled without steps. A StringBuilder chain (javac's string concatenation before Java 9)
 * and a method's local scratch list are the common cases. The analysis follows values through
 * locals, DUP, CHECKCAST and calls returning their receiver's data (iterators, views); a value it cannot follow
 * (a parameter, a field) is never confined.
 */
final class ConfinedObjects {
    private final InsnList insns;
    private Frame<SourceValue>[] frames;
    /** Each NEW whose object leaves: the instructions where it does. */
    private final Map<AbstractInsnNode, Set<Integer>> escapes = new HashMap<>();
    /** The control flow: each instruction's successors (normal and exceptional). */
    private final Map<Integer, Set<Integer>> successors = new HashMap<>();
    /** Per NEW that leaves: the instructions that may run after it left. */
    private final Map<AbstractInsnNode, BitSet> afterEscape = new HashMap<>();
    /** Worked out before the rewriter changes the method: instruction indexes then no longer match the frames. */
    private final Set<MethodInsnNode> confinedCalls = new HashSet<>();

    private ConfinedObjects(MethodNode method) {
        this.insns = method.instructions;
    }

    /** The analysis of `method`, or null when it has no call that could be a step or cannot be analysed. */
    static ConfinedObjects of(String owner, MethodNode method) {
        boolean any = false;
        for (AbstractInsnNode insn : method.instructions)
            if (insn instanceof MethodInsnNode && UnsafeCalls.op((MethodInsnNode) insn) != null) any = true;
        if (!any) return null;
        try {
            ConfinedObjects c = new ConfinedObjects(method);
            c.frames = new Analyzer<SourceValue>(new SourceInterpreter()) {
                @Override
                protected void newControlFlowEdge(int insn, int successor) {
                    c.successors.computeIfAbsent(insn, k -> new HashSet<>()).add(successor);
                }

                @Override
                protected boolean newControlFlowExceptionEdge(int insn, int successor) {
                    newControlFlowEdge(insn, successor);
                    return true;
                }
            }.analyze(owner, method);
            c.findEscapes();
            for (AbstractInsnNode insn : method.instructions) {
                if (!(insn instanceof MethodInsnNode)) continue;
                MethodInsnNode call = (MethodInsnNode) insn;
                if (UnsafeCalls.op(call) != null && c.confinedReceiver(call)) c.confinedCalls.add(call);
            }
            return c;
        } catch (AnalyzerException | RuntimeException e) {
            return null;
        }
    }

    /** Whether `call`'s receiver is, on every path, an object created here that never leaves this method. */
    boolean receiverConfined(MethodInsnNode call) {
        return confinedCalls.contains(call);
    }

    private boolean confinedReceiver(MethodInsnNode call) {
        Frame<SourceValue> f = frames[insns.indexOf(call)];
        if (f == null) return false;
        Set<AbstractInsnNode> origins = new HashSet<>();
        if (!trace(receiver(f, call), origins, new HashSet<>()) || origins.isEmpty()) return false;
        int at = insns.indexOf(call);
        for (AbstractInsnNode n : origins) if (escapes.containsKey(n) && runsAfterEscape(n).get(at)) return false;
        return true;
    }

    private static SourceValue receiver(Frame<SourceValue> f, MethodInsnNode call) {
        return f.getStack(f.getStackSize() - 1 - Type.getArgumentTypes(call.desc).length);
    }

    /** Marks the NEW instructions whose objects reach an instruction that lets them leave. */
    private void findEscapes() {
        for (int i = 0; i < frames.length; i++) {
            Frame<SourceValue> f = frames[i];
            AbstractInsnNode insn = insns.get(i);
            if (f == null || f.getStackSize() == 0) continue;
            int top = f.getStackSize() - 1;
            switch (insn.getOpcode()) {
                case Opcodes.PUTFIELD: case Opcodes.PUTSTATIC: case Opcodes.AASTORE: case Opcodes.ARETURN: case Opcodes.ATHROW:
                    escape(i, f.getStack(top));
                    break;
                case Opcodes.INVOKEVIRTUAL: case Opcodes.INVOKEINTERFACE: case Opcodes.INVOKESPECIAL: case Opcodes.INVOKESTATIC:
                case Opcodes.INVOKEDYNAMIC: {
                    String desc = insn instanceof MethodInsnNode ? ((MethodInsnNode) insn).desc
                            : ((org.objectweb.asm.tree.InvokeDynamicInsnNode) insn).desc;
                    int args = Type.getArgumentTypes(desc).length;
                    for (int k = 0; k < args; k++) escape(i, f.getStack(top - k));
                    boolean hasReceiver = insn.getOpcode() != Opcodes.INVOKESTATIC && insn.getOpcode() != Opcodes.INVOKEDYNAMIC;
                    if (hasReceiver && !harmlessReceiver((MethodInsnNode) insn)) escape(i, f.getStack(top - args));
                    break;
                }
                default:
            }
        }
    }

    /** A call that cannot hand its receiver to another thread: a JDK data type's method or constructor. */
    private static boolean harmlessReceiver(MethodInsnNode call) {
        return UnsafeCalls.unsafeOwner(call.owner) && !call.owner.equals("java/lang/Iterable");
    }

    /** Calls whose result reaches their receiver's data (an element does not: it is another object). */
    private static boolean returnsItsData(MethodInsnNode call) {
        if (Type.getReturnType(call.desc).getDescriptor().equals("Ljava/lang/StringBuilder;")) return true;
        return VIEWS.contains(call.name);
    }

    private static final Set<String> VIEWS = Set.of("iterator", "listIterator", "spliterator", "keySet", "values", "entrySet",
            "navigableKeySet", "descendingKeySet", "descendingMap", "descendingSet", "descendingIterator", "subList", "subMap",
            "headMap", "tailMap", "subSet", "headSet", "tailSet", "stream", "parallelStream", "reversed");

    /** The objects `v` may be, leaving at instruction `at`. */
    private void escape(int at, SourceValue v) {
        Set<AbstractInsnNode> origins = new HashSet<>();
        trace(v, origins, new HashSet<>());
        for (AbstractInsnNode n : origins) escapes.computeIfAbsent(n, k -> new HashSet<>()).add(at);
    }

    /** The instructions reachable from where `n`'s object leaves (not the leaving instructions themselves, unless in a loop). */
    private BitSet runsAfterEscape(AbstractInsnNode n) {
        BitSet seen = afterEscape.get(n);
        if (seen != null) return seen;
        seen = new BitSet(insns.size());
        ArrayDeque<Integer> work = new ArrayDeque<>();
        for (int e : escapes.get(n)) work.addAll(successors.getOrDefault(e, Set.of()));
        while (!work.isEmpty()) {
            int i = work.pop();
            if (seen.get(i)) continue;
            seen.set(i);
            work.addAll(successors.getOrDefault(i, Set.of()));
        }
        afterEscape.put(n, seen);
        return seen;
    }

    /**
     * Adds to `origins` the NEW instructions (of a type UnsafeCalls names) `v` may come from;
     * false when some source could not be followed (a parameter, a field, another call).
     */
    private boolean trace(SourceValue v, Set<AbstractInsnNode> origins, Set<AbstractInsnNode> seen) {
        if (v.insns.isEmpty()) return false;  // a parameter or `this`
        boolean complete = true;
        for (AbstractInsnNode src : v.insns) {
            if (!seen.add(src)) continue;
            complete &= traceOne(src, origins, seen);
        }
        return complete;
    }

    private boolean traceOne(AbstractInsnNode src, Set<AbstractInsnNode> origins, Set<AbstractInsnNode> seen) {
        Frame<SourceValue> at = frames[insns.indexOf(src)];
        if (at == null) return false;
        switch (src.getOpcode()) {
            case Opcodes.NEW:
                if (!UnsafeCalls.unsafeOwner(((TypeInsnNode) src).desc)) return false;
                origins.add(src);
                return true;
            case Opcodes.ALOAD:
                return trace(at.getLocal(((VarInsnNode) src).var), origins, seen);
            case Opcodes.ASTORE: case Opcodes.DUP: case Opcodes.DUP_X1: case Opcodes.DUP_X2: case Opcodes.CHECKCAST:
                return trace(at.getStack(at.getStackSize() - 1), origins, seen);
            case Opcodes.INVOKEVIRTUAL: case Opcodes.INVOKEINTERFACE: {
                // An iterator, a view or the `this` of append is the tracked object's data: followed to it.
                MethodInsnNode call = (MethodInsnNode) src;
                if (!harmlessReceiver(call) || !returnsItsData(call)) return false;
                return trace(receiver(at, call), origins, seen);
            }
            default:
                return false;
        }
    }
}
