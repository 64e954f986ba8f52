// patchval instrument: SuiteShape owns telling a JUnit 3 suite() that only repeats JUnit's default
// (return new TestSuite(ThisClass.class)) from one that builds something else.
package patchval.instrument;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * True for the bytes of a class whose {@code public static suite()} does nothing but return
 * {@code new TestSuite(C.class)} for the class C itself (optionally through one local variable).
 * JUnit then runs exactly the tests it runs for C without a suite(), so the lister may list C's
 * test methods one by one. Anything else in the method (a static field set, another class, tests
 * added, a decorator, a handler) is not this shape. Loaded, like ResetTransformer, beside ASM in a
 * loader of its own (WarmLoader.instrumentClass).
 */
public final class SuiteShape implements BiPredicate<String, byte[]> {
    private static final String SUITE = "junit/framework/TestSuite";

    @Override
    public boolean test(String internalName, byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        List<MethodNode> suites = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            if (m.name.equals("suite") && m.desc.startsWith("()") && (m.access & Opcodes.ACC_STATIC) != 0) suites.add(m);
        }
        if (suites.size() != 1 || !suites.get(0).tryCatchBlocks.isEmpty()) return false;
        // The instructions, without labels (there is nothing to jump to in this shape).
        List<AbstractInsnNode> code = new ArrayList<>();
        for (AbstractInsnNode in : suites.get(0).instructions) {
            if (in.getOpcode() >= 0) code.add(in);
        }
        boolean newSuite = code.size() >= 5
            && code.get(0).getOpcode() == Opcodes.NEW && ((TypeInsnNode) code.get(0)).desc.equals(SUITE)
            && code.get(1).getOpcode() == Opcodes.DUP
            && code.get(2) instanceof LdcInsnNode
            && Type.getObjectType(internalName).equals(((LdcInsnNode) code.get(2)).cst)
            && code.get(3).getOpcode() == Opcodes.INVOKESPECIAL
            && ((MethodInsnNode) code.get(3)).owner.equals(SUITE)
            && ((MethodInsnNode) code.get(3)).name.equals("<init>")
            && ((MethodInsnNode) code.get(3)).desc.equals("(Ljava/lang/Class;)V");
        if (!newSuite) return false;
        // return new TestSuite(C.class);
        if (code.size() == 5) return code.get(4).getOpcode() == Opcodes.ARETURN;
        // TestSuite s = new TestSuite(C.class); return s;
        return code.size() == 7
            && code.get(4).getOpcode() == Opcodes.ASTORE && code.get(5).getOpcode() == Opcodes.ALOAD
            && ((VarInsnNode) code.get(4)).var == ((VarInsnNode) code.get(5)).var
            && code.get(6).getOpcode() == Opcodes.ARETURN;
    }
}
