// patchval instrument: CoverageProbes owns the coverage probes of init's warm pass: one call to
// Cov.hit(id) at the start of every method body of a project class.
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

    CoverageProbes(ClassVisitor cv, String owner, boolean resettable, ToIntFunction<String> ids) {
        super(Opcodes.ASM9, cv);
        this.owner = owner;
        this.resettable = resettable;
        this.ids = ids;
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
        return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitCode() {
                super.visitCode();
                mv.visitLdcInsn(id);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, COV, probe, "(I)V", false);
            }
        };
    }
}
