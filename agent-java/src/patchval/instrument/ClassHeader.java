// patchval instrument: ClassHeader owns what ResetTransformer reads of a class file before rewriting
// any class that names it: its supertypes and fields, and whether it is resettable, sticky or keepable.
package patchval.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** What a class's header says, enough to resolve fields and decide resettability (ResetTransformer's class comment). */
final class ClassHeader {
    String superName;
    String[] interfaces = new String[0];
    boolean resettable;
    /** An enum or interface whose static state Reset cannot put back (ResetTransformer's class comment). */
    boolean sticky;
    /**
     * Sticky for its fields alone (an enum or interface): its initialiser ends with
     * {@code Kept.kept}, which may find the values comparable and keep the class.
     */
    boolean keepable;
    /** Declared fields as name + " " + descriptor. */
    final List<String> fields = new ArrayList<>();

    private ClassHeader() {}

    /** Reads the header (and the calls the initialiser reaches) of a class file. */
    static ClassHeader read(byte[] bytes) {
        ClassHeader i = new ClassHeader();
        // [0] has <clinit>, [1] has a non-constant static field, [2] has a field that may hold mutable state
        boolean[] state = new boolean[3];
        int[] access = new int[1];
        String[] self = new String[1];
        // Per method (name + descriptor): the methods of this class it calls, and READS.
        Map<String, List<String>> own = new HashMap<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int v, int acc, String name, String sig, String sup, String[] itfs) {
                access[0] = acc;
                self[0] = name;
                i.superName = sup;
                if (itfs != null) i.interfaces = itfs;
            }

            @Override
            public FieldVisitor visitField(int acc, String name, String desc, String sig, Object value) {
                i.fields.add(name + " " + desc);
                if ((acc & Opcodes.ACC_STATIC) != 0 && !constant(acc, value)) state[1] = true;
                if (mutable(acc, desc)) state[2] = true;
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int acc, String name, String desc, String sig, String[] ex) {
                if (name.equals("<clinit>")) state[0] = true;
                List<String> calls = new ArrayList<>();
                own.put(name + desc, calls);
                return new MethodVisitor(Opcodes.ASM9) {
                    /** Throwables made and thrown at once (the constructor just before athrow). */
                    int made;
                    int thrown;
                    boolean initThrowable;

                    @Override
                    public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                        if (owner.equals(self[0])) calls.add(n + d);
                        else if (StackReads.isJdkReader(owner, n)) calls.add(READS);
                        initThrowable = op == Opcodes.INVOKESPECIAL && n.equals("<init>")
                            && StackReads.mayBeThrowable(owner);
                    }

                    @Override
                    public void visitTypeInsn(int op, String type) {
                        if (op == Opcodes.NEW && StackReads.mayBeThrowable(type)) made++;
                        initThrowable = false;
                    }

                    @Override
                    public void visitInsn(int op) {
                        if (op == Opcodes.ATHROW && initThrowable) thrown++;
                        initThrowable = false;
                    }

                    @Override
                    public void visitVarInsn(int op, int v) {
                        initThrowable = false;
                    }

                    @Override
                    public void visitFieldInsn(int op, String owner, String n, String d) {
                        initThrowable = false;
                    }

                    @Override
                    public void visitJumpInsn(int op, Label target) {
                        initThrowable = false;
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        initThrowable = false;
                    }

                    @Override
                    public void visitIntInsn(int op, int operand) {
                        initThrowable = false;
                    }

                    @Override
                    public void visitEnd() {
                        // A throwable made and kept: its trace, fixed here, names this frame.
                        if (made > thrown) calls.add(READS);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        boolean plainClass = (access[0] & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ENUM | Opcodes.ACC_ANNOTATION)) == 0;
        i.resettable = plainClass && (state[0] || state[1]);
        i.sticky = (access[0] & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ENUM)) != 0
            && (access[0] & Opcodes.ACC_ANNOTATION) == 0 && state[2];
        i.keepable = i.sticky;
        if (i.resettable && StackReads.reaches(own, "<clinit>()V", READS)) {
            // Re-run as __pv$clinit, its initialiser would see that frame where the JVM's run
            // shows <clinit>: the JVM runs it, once per warm loader.
            i.resettable = false;
            i.sticky = true;
        }
        return i;
    }

    /** Marks a call of a JDK stack reader among a method's calls of its own class's methods. */
    private static final String READS = "";

    /**
     * A field that may hold state a test can change: not final, or of an array, {@code java.util}
     * (collections, maps, atomics, ...) or string-builder type. Synthetic fields (an enum's
     * {@code $VALUES}, which the JDK copies on every {@code values()}) do not count.
     */
    private static boolean mutable(int acc, String desc) {
        if ((acc & Opcodes.ACC_SYNTHETIC) != 0) return false;
        if ((acc & Opcodes.ACC_FINAL) == 0) return true;
        return desc.startsWith("[")
            || (desc.startsWith("Ljava/util/") && !desc.startsWith("Ljava/util/regex/"))
            || desc.equals("Ljava/lang/StringBuilder;") || desc.equals("Ljava/lang/StringBuffer;");
    }

    /** A static field the JVM sets at preparation and nothing can change: final with a ConstantValue. */
    static boolean constant(int access, Object value) {
        return value != null && (access & Opcodes.ACC_FINAL) != 0;
    }
}
