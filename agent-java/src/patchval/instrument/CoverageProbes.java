// patchval instrument: CoverageProbes owns the coverage probes of init's warm pass: one call to
// Cov.hit(id) at the start of every method body of a project class, and one call to Cov.line(id)
// at the first instruction of every source line.
package patchval.instrument;

import java.util.function.ToIntFunction;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Sits after ResetTransformer's adapter, so it sees the methods as they are written: a resettable
 * class's original initialiser arrives as {@code __pv$clinit} (probed as {@code <clinit>}), the
 * generated {@code <clinit>} that calls it and the other generated {@code __pv$} methods get no
 * probe. The id is {@code owner.name}: every overload of a name shares it. A line's id is
 * {@code owner.name:line} (fault localization, src/locate).
 */
final class CoverageProbes extends ClassVisitor {
    private static final String COV = "patchval/agent/Cov";

    private final String owner;
    private final boolean resettable;
    private final ToIntFunction<String> ids;
    private final ToIntFunction<String> lineIds;

    CoverageProbes(ClassVisitor cv, String owner, boolean resettable, ToIntFunction<String> ids,
                   ToIntFunction<String> lineIds) {
        super(Opcodes.ASM9, cv);
        this.owner = owner;
        this.resettable = resettable;
        this.ids = ids;
        this.lineIds = lineIds;
    }

    @Override
    public MethodVisitor visitMethod(int acc, String n, String desc, String sig, String[] ex) {
        MethodVisitor mv = super.visitMethod(acc, n, desc, sig, ex);
        if (mv == null || (acc & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
        String member;
        if (n.equals("__pv$clinit")) member = "<clinit>";
        else if (n.startsWith("__pv$") || (resettable && n.equals("<clinit>"))) return mv;
        else member = n;
        int id = ids.applyAsInt(owner + "." + member);
        // The initialiser of a class no reset runs again (an enum, an interface) is global itself,
        // whatever the order of this probe and ResetTransformer's enterInit mark.
        String probe = n.equals("<clinit>") && !resettable ? "hitGlobal" : "hit";
        MethodVisitor lines = lineIds == null ? mv : new LineProbes(mv, owner + "." + member + ":");
        return new MethodVisitor(Opcodes.ASM9, lines) {
            @Override
            public void visitCode() {
                super.visitCode();
                mv.visitLdcInsn(id);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, probe, "(I)V", false);
            }
        };
    }

    /**
     * A line's probe goes before the first instruction after its line number entry, not at the
     * entry itself: a stack map frame may follow the entry's label and must stay at the offset the
     * jumps to that label reach. The probe leaves the stack as it was, so the frames stay true. A
     * line that starts with a NEW gets its probe after it (see visitTypeInsn).
     */
    private final class LineProbes extends MethodVisitor {
        private final String prefix;
        private int pending = -1;

        LineProbes(MethodVisitor mv, String prefix) {
            super(Opcodes.ASM9, mv);
            this.prefix = prefix;
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            super.visitLineNumber(line, start);
            pending = lineIds.applyAsInt(prefix + line);
        }

        private void probe() {
            if (pending < 0) return;
            int id = pending;
            pending = -1;
            mv.visitLdcInsn(id);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, "line", "(I)V", false);
        }

        @Override public void visitInsn(int op) { probe(); super.visitInsn(op); }
        @Override public void visitIntInsn(int op, int v) { probe(); super.visitIntInsn(op, v); }
        @Override public void visitVarInsn(int op, int v) { probe(); super.visitVarInsn(op, v); }
        /** After a NEW: a frame's uninitialised type names the NEW's offset, its line's label. */
        @Override
        public void visitTypeInsn(int op, String t) {
            if (op != Opcodes.NEW) probe();
            super.visitTypeInsn(op, t);
            probe();
        }

        @Override
        public void visitFieldInsn(int op, String o, String n, String d) {
            probe();
            super.visitFieldInsn(op, o, n, d);
        }

        @Override
        public void visitMethodInsn(int op, String o, String n, String d, boolean itf) {
            probe();
            super.visitMethodInsn(op, o, n, d, itf);
        }

        @Override
        public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... args) {
            probe();
            super.visitInvokeDynamicInsn(n, d, h, args);
        }

        @Override public void visitJumpInsn(int op, Label l) { probe(); super.visitJumpInsn(op, l); }
        @Override public void visitLdcInsn(Object v) { probe(); super.visitLdcInsn(v); }
        @Override public void visitIincInsn(int v, int inc) { probe(); super.visitIincInsn(v, inc); }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            probe();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            probe();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String d, int dims) {
            probe();
            super.visitMultiANewArrayInsn(d, dims);
        }
    }
}
