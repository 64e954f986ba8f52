// patchval instrument: SuiteShape owns telling a JUnit 3 suite() that only repeats JUnit's default
// (return new TestSuite(ThisClass.class)) from one that builds something else.
package patchval.instrument;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * True for the bytes of a class whose {@code public static suite()} does nothing but return
 * {@code new TestSuite(C.class)} for the class C itself (optionally through one local variable).
 * JUnit then runs exactly the tests it runs for C without a suite(), so the lister may list C's
 * test methods one by one. Anything else in the method (a static field set, another class, tests
 * added, a decorator) is not this shape. Loaded, like ResetTransformer, beside ASM in a loader of
 * its own (WarmLoader.instrumenterClass).
 */
public final class SuiteShape implements BiPredicate<String, byte[]> {
    private static final String SUITE = "junit/framework/TestSuite";

    @Override
    public boolean test(String internalName, byte[] bytes) {
        List<String> code = new ArrayList<>();
        boolean[] found = {false};
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int acc, String name, String desc, String sig, String[] ex) {
                if (!name.equals("suite") || !desc.startsWith("()")
                    || (acc & Opcodes.ACC_STATIC) == 0) {
                    return null;
                }
                found[0] = true;
                return new Recorder(code);
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (!found[0]) return false;
        String self = "L" + internalName + ";";
        List<String> direct = List.of("NEW " + SUITE, "DUP", "LDC " + self,
            "INVOKESPECIAL " + SUITE + ".<init>(Ljava/lang/Class;)V", "ARETURN");
        if (code.equals(direct)) return true;
        // TestSuite s = new TestSuite(C.class); return s;
        if (code.size() != 7) return false;
        List<String> stored = new ArrayList<>(direct.subList(0, 4));
        String slot = code.get(4).startsWith("ASTORE ") ? code.get(4).substring(7) : null;
        if (slot == null) return false;
        stored.add("ASTORE " + slot);
        stored.add("ALOAD " + slot);
        stored.add("ARETURN");
        return code.equals(stored);
    }

    /** The method's instructions as text; labels (there are none to jump to in this shape) dropped. */
    private static final class Recorder extends MethodVisitor {
        private final List<String> code;

        Recorder(List<String> code) {
            super(Opcodes.ASM9);
            this.code = code;
        }

        @Override
        public void visitInsn(int op) {
            code.add(op == Opcodes.DUP ? "DUP" : op == Opcodes.ARETURN ? "ARETURN" : "OP " + op);
        }

        @Override
        public void visitTypeInsn(int op, String type) {
            code.add((op == Opcodes.NEW ? "NEW " : "TYPE " + op + " ") + type);
        }

        @Override
        public void visitLdcInsn(Object value) {
            code.add("LDC " + (value instanceof Type ? ((Type) value).getDescriptor() : String.valueOf(value)));
        }

        @Override
        public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
            code.add((op == Opcodes.INVOKESPECIAL ? "INVOKESPECIAL " : "INVOKE " + op + " ")
                + owner + "." + name + desc);
        }

        @Override
        public void visitVarInsn(int op, int slot) {
            code.add((op == Opcodes.ASTORE ? "ASTORE " : op == Opcodes.ALOAD ? "ALOAD " : "VAR " + op + " ") + slot);
        }

        @Override
        public void visitFieldInsn(int op, String owner, String name, String desc) {
            code.add("FIELD " + op + " " + owner + "." + name);
        }

        @Override
        public void visitIntInsn(int op, int operand) {
            code.add("INT " + op);
        }

        @Override
        public void visitIincInsn(int slot, int inc) {
            code.add("IINC");
        }

        @Override
        public void visitJumpInsn(int op, Label label) {
            code.add("JUMP " + op);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            code.add("SWITCH");
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            code.add("SWITCH");
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
            code.add("INDY");
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            code.add("MULTIANEWARRAY");
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            code.add("TRY");
        }
    }
}
