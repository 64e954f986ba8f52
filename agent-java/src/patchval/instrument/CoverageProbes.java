// patchval instrument: CoverageProbes owns the coverage probes of init's warm pass: one call to
// Cov.hit(id) at the start of every method body of a project class, and the marks around the
// static initialiser of an enum or interface (which no reset runs again).
package patchval.instrument;

import java.util.function.ToIntFunction;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Sits after ResetTransformer's adapter, so it sees the methods as they are written: a resettable
 * class's original initialiser arrives as {@code __pv$clinit} (probed as {@code <clinit>}), the
 * generated {@code <clinit>} that calls it and the other generated {@code __pv$} methods get no
 * probe. The id is {@code owner.name}: every overload of a name shares it.
 */
final class CoverageProbes extends ClassVisitor {
    private static final String COV = "patchval/agent/Cov";

    private final String owner;
    private final boolean resettable;
    private final ToIntFunction<String> ids;
    private boolean enumOrInterface;

    CoverageProbes(ClassVisitor cv, String owner, boolean resettable, ToIntFunction<String> ids) {
        super(Opcodes.ASM9, cv);
        this.owner = owner;
        this.resettable = resettable;
        this.ids = ids;
    }

    @Override
    public void visit(int v, int acc, String n, String sig, String sup, String[] itfs) {
        enumOrInterface = (acc & (Opcodes.ACC_ENUM | Opcodes.ACC_INTERFACE)) != 0;
        super.visit(v, acc, n, sig, sup, itfs);
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
        boolean init = n.equals("<clinit>") && !resettable && enumOrInterface;
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                if (init) mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, "enterInit", "()V", false);
                mv.visitLdcInsn(id);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, "hit", "(I)V", false);
            }

            @Override
            public void visitInsn(int op) {
                if (init && op == Opcodes.RETURN) {
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, "exitInit", "()V", false);
                }
                super.visitInsn(op);
            }
        };
    }
}
