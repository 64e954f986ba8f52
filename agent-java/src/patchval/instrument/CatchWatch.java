// patchval instrument: CatchWatch owns the bytecode that tells patchval.agent.Overflow when an
// exception handler catches a StackOverflowError: a store at the start of every handler, no call
// and no branch, so the handler's own room on a full stack stays what it was.
package patchval.instrument;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableAnnotationNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * At the first instruction of every exception handler ({@code catch} and {@code finally}), with
 * the caught throwable on the stack: {@code Overflow.FLAGS[t instanceof StackOverflowError ? 1 : 0]
 * = true}. Calling a method there would not do: a handler that catches an overflow runs with the
 * stack nearly full, and the call would overflow again where the handler's own code does not.
 * The store writes one of two slots and reads nothing, so threads in handlers at once lose no
 * overflow. As a {@code BiFunction} it instruments a whole class (the fresh loaders); the warm
 * loader's ResetTransformer wraps its methods with {@link #wrap}.
 */
public final class CatchWatch implements BiFunction<String, byte[], byte[]> {
    private static final String OVERFLOW = "patchval/agent/Overflow";

    /**
     * The method visitor {@code next} with the watch put in. A method passes through as it is
     * read until its first try-catch block (the class reader gives them before any
     * instruction); from there its code is read whole, the stores put in, and the code passed
     * on. Most methods have no handler and cost no copy.
     */
    static MethodVisitor wrap(MethodVisitor next, int acc, String name, String desc, String sig, String[] ex) {
        if (next == null) return null;
        return new MethodVisitor(Opcodes.ASM9, next) {
            private MethodNode code;

            @Override
            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                if (code == null) {
                    code = new MethodNode(Opcodes.ASM9, acc, name, desc, sig, ex);
                    mv = code;
                }
                super.visitTryCatchBlock(start, end, handler, type);
            }

            @Override
            public void visitEnd() {
                if (code == null) {
                    super.visitEnd();
                    return;
                }
                watch(code);
                passCode(code, next);
                next.visitEnd();
            }
        };
    }

    /** What {@code MethodNode.accept} passes on after {@code visitCode}: the method's code. */
    private static void passCode(MethodNode m, MethodVisitor next) {
        for (int i = 0; i < m.tryCatchBlocks.size(); i++) {
            m.tryCatchBlocks.get(i).updateIndex(i);
            m.tryCatchBlocks.get(i).accept(next);
        }
        m.instructions.accept(next);
        if (m.localVariables != null) {
            for (LocalVariableNode v : m.localVariables) v.accept(next);
        }
        for (boolean visible : new boolean[] {true, false}) {
            List<LocalVariableAnnotationNode> list =
                visible ? m.visibleLocalVariableAnnotations : m.invisibleLocalVariableAnnotations;
            if (list != null) {
                for (LocalVariableAnnotationNode a : list) a.accept(next, visible);
            }
        }
        next.visitMaxs(m.maxStack, m.maxLocals);
    }

    @Override
    public byte[] apply(String name, byte[] bytes) {
        ClassReader r = new ClassReader(bytes);
        ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public MethodVisitor visitMethod(int acc, String n, String desc, String sig, String[] ex) {
                return wrap(super.visitMethod(acc, n, desc, sig, ex), acc, n, desc, sig, ex);
            }
        }, 0);
        return w.toByteArray();
    }

    /**
     * Puts the store before the first instruction after each handler's label (and after its stack
     * map frame, which the store leaves valid: it ends with the stack as it began), and takes the
     * stores out of every try range. javac's range for a {@code finally} covers the start of its
     * own handler; a store inside it that throws on a full stack (it did, at every attempt:
     * most likely the JIT's code for a handler never taken, deoptimising there with no room left)
     * throws back into the same handler forever. Out of every range, such a throw leaves the method as a throw at the
     * handler's entry on a full stack may anyway.
     */
    private static void watch(MethodNode m) {
        if (m.tryCatchBlocks == null || m.tryCatchBlocks.isEmpty()) return;
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode t : m.tryCatchBlocks) handlers.add(t.handler);
        List<LabelNode[]> stores = new ArrayList<>();
        for (LabelNode h : handlers) {
            AbstractInsnNode first = h;
            while (first != null && first.getOpcode() < 0) first = first.getNext();
            if (first == null) continue;
            LabelNode before = new LabelNode();
            LabelNode after = new LabelNode();
            InsnList store = new InsnList();
            store.add(before);
            store.add(new InsnNode(Opcodes.DUP));
            store.add(new TypeInsnNode(Opcodes.INSTANCEOF, "java/lang/StackOverflowError"));
            store.add(new FieldInsnNode(Opcodes.GETSTATIC, OVERFLOW, "FLAGS", "[Z"));
            store.add(new InsnNode(Opcodes.SWAP));
            store.add(new InsnNode(Opcodes.ICONST_1));
            store.add(new InsnNode(Opcodes.BASTORE));
            store.add(after);
            m.instructions.insertBefore(first, store);
            stores.add(new LabelNode[] {before, after});
        }
        for (LabelNode[] st : stores) {
            int from = m.instructions.indexOf(st[0]);
            List<TryCatchBlockNode> out = new ArrayList<>();
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                int start = m.instructions.indexOf(t.start);
                int end = m.instructions.indexOf(t.end);
                if (start > from || end <= from) {
                    out.add(t);
                    continue;
                }
                if (holdsCode(t.start, st[0])) out.add(piece(t, t.start, st[0]));
                if (holdsCode(st[1], t.end)) out.add(piece(t, st[1], t.end));
            }
            m.tryCatchBlocks = out;
        }
    }

    /** Whether an instruction lies between the two labels, so that a range over them is not empty. */
    private static boolean holdsCode(LabelNode from, LabelNode to) {
        for (AbstractInsnNode i = from; i != null && i != to; i = i.getNext()) {
            if (i.getOpcode() >= 0) return true;
        }
        return false;
    }

    private static TryCatchBlockNode piece(TryCatchBlockNode t, LabelNode start, LabelNode end) {
        TryCatchBlockNode p = new TryCatchBlockNode(start, end, t.handler, t.type);
        p.visibleTypeAnnotations = t.visibleTypeAnnotations;
        p.invisibleTypeAnnotations = t.invisibleTypeAnnotations;
        return p;
    }
}
