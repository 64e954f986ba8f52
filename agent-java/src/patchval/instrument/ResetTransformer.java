// patchval instrument: ResetTransformer owns the bytecode rewriting behind warm class loaders: it
// makes a class's static initialisation re-runnable and puts a Reset.touch guard wherever the JVM
// would initialise a resettable class. Loaded with ASM in an isolated loader (see WarmLoader).
package patchval.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * {@code apply(internalName, bytes)} returns the instrumented class file. A class is
 * <em>resettable</em> when it is a class (not an interface, enum or annotation) with a static
 * initialiser or a static field that is not a compile-time constant. A resettable class gets:
 * <ul>
 *   <li>its {@code <clinit>} renamed {@code __pv$clinit}, and a new {@code <clinit>} that reports
 *       to Reset and runs it, catching what it throws (Reset rethrows it at the access);</li>
 *   <li>{@code __pv$zero}, which sets every non-constant static field to its default value, and
 *       {@code final} removed from those fields (re-running the initialiser assigns them);</li>
 * </ul>
 * A class whose static initialiser reads the stack (a JDK stack reader called by it or by a
 * method of the class it calls, {@link StackReads}), or makes a throwable there that it does not
 * throw at once (its trace would name {@code __pv$clinit}), is sticky instead of resettable, so
 * that the JVM's own {@code <clinit>} frame is what it sees, as in a fresh loader.
 * An enum or interface that can hold mutable state — a field that is not final, or one of an
 * array, {@code java.util} or string-builder type (other than an enum's own synthetic
 * {@code $VALUES}) — is <em>sticky</em>: it cannot be reset, and its {@code <clinit>} starts with
 * {@code Reset.sticky()}, after which the worker drops the warm loader at the end of the test;
 * unless its initialiser, which ends with {@code Kept.kept}, left values that can be compared and the
 * test changed none of them (patchval.agent.Kept). Any enum's or interface's initialiser that reached
 * a static field of a resettable class, or threw, makes it sticky at its end (Reset.exitInit,
 * Reset.exitInitFailed).
 * Every exception handler marks a caught StackOverflowError ({@link CatchWatch}).
 * And every class gets {@code Reset.field(id)} before each {@code getstatic}/{@code putstatic} of
 * a field declared by a resettable class, and {@code Reset.touch(id)} on entry to the static methods
 * and constructors of one ({@code Reset.field(id)} for those that use their class's own static
 * fields, whose accesses have no guard: {@link #ownStaticUsers}; a constructor's guard stands for
 * the {@code new} before it: a guard in front of {@code new}
 * would move the offset that stack map frames name for the uninitialised object; reflection
 * reaches static methods and constructors without any instruction to guard). A class that is not resettable but has a resettable superclass is guarded as that
 * superclass, since initialising it initialises the superclass.
 */
public final class ResetTransformer implements BiFunction<String, byte[], byte[]> {
    private static final String RESET = "patchval/agent/Reset";

    private final Function<String, byte[]> lookup;
    private final BiFunction<String, String, Integer> ids;
    private final java.util.function.BiConsumer<String, String> stripped;
    /** Which classes get coverage probes (CoverageProbes), and their ids; null: none. */
    private final java.util.function.Predicate<String> probed;
    private final java.util.function.ToIntFunction<String> probeIds;
    private final java.util.function.ToIntFunction<String> lineIds;
    private final java.util.function.Consumer<String> pure;
    private final Map<String, ClassHeader> infos = new HashMap<>();

    /**
     * {@code lookup} reads a class file of the warm loader's class path by internal name;
     * {@code ids} gives Reset's id of a resettable class (internal name, resettable superclass);
     * {@code stripped} is told of every static field that lost its {@code final};
     * {@code probed} (internal name) says which classes get coverage probes with ids from
     * {@code probeIds} for methods and {@code lineIds} for source lines (all three null when
     * coverage is off); {@code pure}, when not null, is told of
     * every resettable class whose initialiser can only rebuild the state it has ({@link PureInit}).
     */
    public ResetTransformer(Function<String, byte[]> lookup, BiFunction<String, String, Integer> ids,
                            java.util.function.BiConsumer<String, String> stripped,
                            java.util.function.Predicate<String> probed,
                            java.util.function.ToIntFunction<String> probeIds,
                            java.util.function.ToIntFunction<String> lineIds,
                            java.util.function.Consumer<String> pure) {
        this.pure = pure;
        this.lookup = lookup;
        this.ids = ids;
        this.stripped = stripped;
        this.probed = probed;
        this.probeIds = probeIds;
        this.lineIds = lineIds;
    }

    /** The header of {@code name}, or null when it is not on the warm loader's class path. */
    private ClassHeader info(String name) {
        synchronized (infos) {
            if (infos.containsKey(name)) return infos.get(name);
        }
        byte[] bytes = name.startsWith("java/") ? null : lookup.apply(name);
        ClassHeader i = bytes == null ? null : ClassHeader.read(bytes);
        synchronized (infos) {
            infos.put(name, i);
        }
        return i;
    }

    /** The nearest resettable class among {@code name} and its superclasses, or null. */
    private String initTarget(String name) {
        for (int depth = 0; name != null && depth < 64; depth++) {
            ClassHeader i = info(name);
            if (i == null) return null;
            if (i.resettable) return name;
            name = i.superName;
        }
        return null;
    }

    /** Reset's id for the class whose initialisation {@code name}'s initialisation implies, or -1. */
    private int guardId(String name) {
        String target = initTarget(name);
        if (target == null) return -1;
        ClassHeader t = info(target);
        String sup = t.superName == null ? null : initTarget(t.superName);
        return ids.apply(target, sup);
    }

    /** The class that declares the field {@code owner.name} resolves to (JVMS 5.4.3.2), or null. */
    private String declaring(String owner, String name, String desc, int depth) {
        if (owner == null || depth > 64) return null;
        ClassHeader i = info(owner);
        if (i == null) return null;
        if (i.fields.contains(name + " " + desc)) return owner;
        for (String itf : i.interfaces) {
            String d = declaring(itf, name, desc, depth + 1);
            if (d != null) return d;
        }
        return declaring(i.superName, name, desc, depth + 1);
    }

    @Override
    public byte[] apply(String name, byte[] bytes) {
        ClassHeader self = ClassHeader.read(bytes);
        synchronized (infos) {
            infos.put(name, self);
        }
        if (self.resettable && pure != null && PureInit.test(name, bytes)) pure.accept(name);
        ClassReader r = new ClassReader(bytes);
        ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
        ClassVisitor out = probed != null && probed.test(name)
            ? new CoverageProbes(w, name, self.resettable, probeIds, lineIds) : w;
        java.util.Set<String> users = self.resettable ? ownStaticUsers(name, bytes) : java.util.Set.of();
        r.accept(new Adapter(out, name, self, users), 0);
        return w.toByteArray();
    }

    private static void push(MethodVisitor mv, int id) {
        if (id <= 5) mv.visitInsn(Opcodes.ICONST_0 + id);
        else if (id <= Byte.MAX_VALUE) mv.visitIntInsn(Opcodes.BIPUSH, id);
        else if (id <= Short.MAX_VALUE) mv.visitIntInsn(Opcodes.SIPUSH, id);
        else mv.visitLdcInsn(id);
    }

    /** Boxes the primitive on the stack (a reference stays as it is). */
    private static void box(MethodVisitor mv, Type t) {
        String[] boxes = {null, "java/lang/Boolean", "java/lang/Character", "java/lang/Byte", "java/lang/Short",
            "java/lang/Integer", "java/lang/Float", "java/lang/Long", "java/lang/Double"};
        int sort = t.getSort();
        if (sort < Type.BOOLEAN || sort > Type.DOUBLE) return;
        String box = boxes[sort];
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, box, "valueOf", "(" + t.getDescriptor() + ")L" + box + ";", false);
    }

    /** {@code Reset.touch(id)}, or {@code Reset.field(id)} where the code reaches a static field of class {@code id}. */
    private static void touch(MethodVisitor mv, int id, boolean field) {
        push(mv, id);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, field ? "field" : "touch", "(I)V", false);
    }

    /**
     * The methods of class {@code self} (name + descriptor) that read or write one of its own
     * static fields: their entry guard is {@code Reset.field}, since the field accesses behind it
     * have no guard of their own.
     */
    private java.util.Set<String> ownStaticUsers(String self, byte[] bytes) {
        java.util.Set<String> users = new java.util.HashSet<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int acc, String n, String desc, String sig, String[] ex) {
                String key = n + desc;
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitFieldInsn(int op, String owner, String f, String fdesc) {
                        if ((op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC)
                            && self.equals(declaring(owner, f, fdesc, 0))) users.add(key);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return users;
    }

    private final class Adapter extends ClassVisitor {
        private final String name;
        private final ClassHeader self;
        private int version;
        /** Static fields to zero on re-initialisation: name, descriptor, constant value or null. */
        private final List<Object[]> statics = new ArrayList<>();
        private boolean hadClinit;
        private boolean iface;
        /** Field setters the methods asked for: name (setInt...) to value descriptor. */
        private final Map<String, String> setters = new java.util.TreeMap<>();

        /** The methods whose entry guard is {@code Reset.field} ({@link #ownStaticUsers}). */
        private final java.util.Set<String> users;

        Adapter(ClassVisitor cv, String name, ClassHeader self, java.util.Set<String> users) {
            super(Opcodes.ASM9, cv);
            this.name = name;
            this.self = self;
            this.users = users;
        }

        @Override
        public void visit(int v, int acc, String n, String sig, String sup, String[] itfs) {
            version = v & 0xFFFF;
            iface = (acc & Opcodes.ACC_INTERFACE) != 0;
            super.visit(v, acc, n, sig, sup, itfs);
        }

        @Override
        public FieldVisitor visitField(int acc, String n, String desc, String sig, Object value) {
            if (self.resettable && (acc & Opcodes.ACC_STATIC) != 0 && !ClassHeader.constant(acc, value)) {
                if ((acc & Opcodes.ACC_FINAL) != 0) stripped.accept(name, n);
                acc &= ~Opcodes.ACC_FINAL;
                statics.add(new Object[] {n, desc, value});
            }
            return super.visitField(acc, n, desc, sig, value);
        }

        @Override
        public MethodVisitor visitMethod(int acc, String n, String desc, String sig, String[] ex) {
            boolean clinit = n.equals("<clinit>");
            boolean usesStatics = users.contains(n + desc);
            if (clinit && self.resettable) {
                hadClinit = true;
                n = "__pv$clinit";
                acc = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
            }
            MethodVisitor mv = super.visitMethod(acc, n, desc, sig, ex);
            if (mv == null) return null;
            boolean entry = !clinit && (n.equals("<init>") || (acc & Opcodes.ACC_STATIC) != 0);
            // Interfaces take the generated setters as static methods from Java 8 class files on.
            Map<String, String> set = iface && version < Opcodes.V1_8 ? null : setters;
            // The watch first: it sees the class file's handlers before Guards adds its own code.
            return CatchWatch.wrap(new Guards(mv, name, entry ? guardId(name) : -1, usesStatics, clinit, set, iface, clinit && self.sticky,
                clinit && !self.resettable, clinit && self.keepable && version >= Opcodes.V1_5, version), acc, n, desc, sig, ex);
        }

        @Override
        public void visitEnd() {
            for (Map.Entry<String, String> e : setters.entrySet()) emitSetter(e.getKey(), e.getValue());
            if (self.resettable) {
                int id = guardId(name);
                emitZero();
                if (!hadClinit) emitEmpty("__pv$clinit");
                emitClinit(id);
            }
            super.visitEnd();
        }

        private void emitZero() {
            MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                "__pv$zero", "()V", null, null);
            mv.visitCode();
            for (Object[] f : statics) {
                String desc = (String) f[1];
                Object value = f[2];
                if (value != null) {
                    mv.visitLdcInsn(value);
                } else {
                    switch (Type.getType(desc).getSort()) {
                        case Type.LONG: mv.visitInsn(Opcodes.LCONST_0); break;
                        case Type.FLOAT: mv.visitInsn(Opcodes.FCONST_0); break;
                        case Type.DOUBLE: mv.visitInsn(Opcodes.DCONST_0); break;
                        case Type.OBJECT: case Type.ARRAY: mv.visitInsn(Opcodes.ACONST_NULL); break;
                        default: mv.visitInsn(Opcodes.ICONST_0);
                    }
                }
                mv.visitFieldInsn(Opcodes.PUTSTATIC, name, (String) f[0], desc);
            }
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }

        /**
         * {@code static void __pv$setX(Field f, Object o, V v)}: when f lost its final,
         * {@code Reset.finalSet(f.canAccess(null), f, v, "setX")} throws what the JDK throws for a
         * final field (it returns when this class may not access f: the JDK's own access error
         * follows); then {@code f.setX(o, v)}, called from this class as the original call was.
         */
        private void emitSetter(String n, String value) {
            String field = "Ljava/lang/reflect/Field;";
            String desc = "(" + field + "Ljava/lang/Object;" + value + ")V";
            int acc = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
            MethodVisitor mv = cv.visitMethod(acc, "__pv$" + n, desc, null, null);
            mv.visitCode();
            Label real = new Label();
            Type v = Type.getType(value);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "isStripped", "(" + field + ")Z", false);
            mv.visitJumpInsn(Opcodes.IFEQ, real);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitInsn(Opcodes.ACONST_NULL);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/reflect/Field", "canAccess", "(Ljava/lang/Object;)Z", false);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(v.getOpcode(Opcodes.ILOAD), 2);
            box(mv, v);
            mv.visitLdcInsn(n);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "finalSet",
                "(Z" + field + "Ljava/lang/Object;Ljava/lang/String;)V", false);
            mv.visitLabel(real);
            if (version >= Opcodes.V1_6) mv.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(v.getOpcode(Opcodes.ILOAD), 2);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/reflect/Field", n, "(Ljava/lang/Object;" + value + ")V", false);
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }

        private void emitEmpty(String n) {
            MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, n, "()V", null, null);
            mv.visitCode();
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }

        /**
         * {@code <clinit>}: Reset.jvmInit(id); try { __pv$clinit(); } catch (Throwable t) {
         * Reset.jvmInitFailed(t, id); return; } Reset.jvmInitDone(id);
         */
        private void emitClinit(int id) {
            MethodVisitor mv = cv.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
            mv.visitCode();
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            mv.visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
            push(mv, id);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "jvmInit", "(I)V", false);
            mv.visitLabel(start);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, name, "__pv$clinit", "()V", false);
            mv.visitLabel(end);
            push(mv, id);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "jvmInitDone", "(I)V", false);
            mv.visitInsn(Opcodes.RETURN);
            mv.visitLabel(handler);
            if (version >= Opcodes.V1_6) {
                mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {"java/lang/Throwable"});
            }
            push(mv, id);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "jvmInitFailed", "(Ljava/lang/Throwable;I)V", false);
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
    }

    /** Puts the guards into one method's code. */
    private final class Guards extends MethodVisitor {
        private final String self;
        private final int entryId;
        /** The method reads or writes its class's own static fields: its entry guard is {@code Reset.field}. */
        private final boolean usesStatics;
        private final boolean clinit;
        /** Field setters this class needs generated (name, value descriptor); null: none allowed. */
        private final Map<String, String> setters;
        private final boolean selfInterface;
        /** The initialiser of a sticky class: reports to Reset first. */
        private final boolean sticky;
        /**
         * The initialiser of an enum or interface, which runs once per loader: brackets its run
         * with Reset.enterInit and Reset.exitInit (on every return, and in a handler for every
         * exception that leaves it, added last so the initialiser's own handlers come first).
         */
        private final boolean marks;
        /** The initialiser of a keepable class (ClassHeader.keepable): calls Kept.kept before each return. */
        private final boolean keepable;
        private final int version;
        private final Label start = new Label();

        Guards(MethodVisitor mv, String self, int entryId, boolean usesStatics, boolean clinit, Map<String, String> setters,
               boolean selfInterface, boolean sticky, boolean marks, boolean keepable, int version) {
            super(Opcodes.ASM9, mv);
            this.self = self;
            this.entryId = entryId;
            this.usesStatics = usesStatics;
            this.clinit = clinit;
            this.setters = setters;
            this.selfInterface = selfInterface;
            this.sticky = sticky;
            this.marks = marks;
            this.keepable = keepable;
            this.version = version;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (entryId >= 0) touch(mv, entryId, usesStatics);
            if (sticky) mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "sticky", "()V", false);
            if (marks) {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "enterInit", "()V", false);
                mv.visitLabel(start);
            }
        }

        @Override
        public void visitInsn(int op) {
            if (keepable && op == Opcodes.RETURN) {
                mv.visitLdcInsn(Type.getObjectType(self));
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, "patchval/agent/Kept", "kept", "(Ljava/lang/Class;)V", false);
            }
            if (marks && op == Opcodes.RETURN) mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "exitInit", "()V", false);
            super.visitInsn(op);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            if (marks) {
                Label end = new Label();
                Label handler = new Label();
                mv.visitLabel(end);
                mv.visitTryCatchBlock(start, end, handler, null);
                mv.visitLabel(handler);
                if (version >= Opcodes.V1_6) {
                    mv.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
                }
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "exitInitFailed", "()V", false);
                mv.visitInsn(Opcodes.ATHROW);
            }
            super.visitMaxs(maxStack, maxLocals);
        }

        @Override
        public void visitFieldInsn(int op, String owner, String n, String desc) {
            if (op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC) {
                String decl = declaring(owner, n, desc, 0);
                // In its own initialiser or behind its own entry guard a class is up to date.
                boolean covered = decl != null && decl.equals(self) && (clinit || entryId >= 0);
                if (decl != null && !covered) {
                    ClassHeader d = info(decl);
                    if (d != null && d.resettable) touch(mv, guardId(decl), true);
                }
            }
            super.visitFieldInsn(op, owner, n, desc);
        }

        @Override
        public void visitMethodInsn(int op, String owner, String n, String desc, boolean itf) {
            if (op == Opcodes.INVOKESTATIC && owner.equals("java/lang/Class") && n.equals("forName")
                && desc.equals("(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;")) {
                super.visitMethodInsn(op, RESET, "forName", desc, false);
                return;
            }
            if (owner.equals("java/lang/reflect/Field") && op == Opcodes.INVOKEVIRTUAL && reflect(n, desc)) return;
            super.visitMethodInsn(op, owner, n, desc, itf);
            if (!owner.equals("java/lang/Class")) return;
            if (n.equals("forName") && desc.equals("(Ljava/lang/String;)Ljava/lang/Class;")) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "initialized", "(Ljava/lang/Class;)Ljava/lang/Class;", false);
            } else if ((n.equals("getField") || n.equals("getDeclaredField"))
                && desc.equals("(Ljava/lang/String;)Ljava/lang/reflect/Field;")) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "field", "(Ljava/lang/reflect/Field;)Ljava/lang/reflect/Field;", false);
            } else if ((n.equals("getFields") || n.equals("getDeclaredFields"))
                && desc.equals("()[Ljava/lang/reflect/Field;")) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "fields", "([Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;", false);
            }
        }

        /**
         * A field that lost its {@code final} must still look final to reflection: its modifiers
         * and strings get {@code final} back, and setting it fails as the JDK fails (through a
         * setter generated in this class, so that the access check still sees this class as the
         * caller). True when the call was replaced.
         */
        private boolean reflect(String n, String desc) {
            String field = "Ljava/lang/reflect/Field;";
            if (n.equals("getModifiers") && desc.equals("()I")) {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, "modifiers", "(" + field + ")I", false);
                return true;
            }
            if ((n.equals("toString") || n.equals("toGenericString")) && desc.equals("()Ljava/lang/String;")) {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, RESET, n.equals("toString") ? "fieldString" : "fieldGenericString",
                    "(" + field + ")Ljava/lang/String;", false);
                return true;
            }
            if (n.startsWith("set") && desc.startsWith("(Ljava/lang/Object;") && desc.endsWith(")V") && setters != null) {
                String value = desc.substring("(Ljava/lang/Object;".length(), desc.length() - 2);
                setters.put(n, value);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, self, "__pv$" + n, "(" + field + "Ljava/lang/Object;" + value + ")V",
                    selfInterface);
                return true;
            }
            return false;
        }
    }
}
