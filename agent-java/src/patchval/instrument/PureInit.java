// patchval instrument: PureInit tells a class whose static initialiser can only rebuild the state
// the class already has (private final tables computed deterministically, never written after), so
// Reset need not run it again before every test. Loaded with ASM in an isolated loader.
package patchval.instrument;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * A class is <em>pure-init</em> when all of the following hold, so that its static state after
 * one successful initialisation is, at every later point, the state a fresh loader's
 * initialisation would give:
 * <ol>
 * <li>it extends {@code Object}, implements nothing and has no nested or enclosing class (so no
 *     other class initialises with it or reaches its private members);</li>
 * <li>every static field is {@code final}, of a primitive type or {@code String} (which any class
 *     may read: the value cannot change), or a {@code private} array of primitives (a table);</li>
 * <li>the initialiser and every method of the class it calls are deterministic and read nothing
 *     outside the class: arithmetic, locals, arrays, the class's own static fields and static
 *     methods, and the pure static methods of {@code Math}, {@code StrictMath}, {@code Double},
 *     {@code Float}, {@code Integer} and {@code Long} (no object is created, no other class's
 *     field read, no virtual call);</li>
 * <li>outside the initialiser and the private methods only it calls, a table (or a row of one)
 *     is only read: indexed, measured, compared or kept in a local; it is never written, stored,
 *     passed to a method or returned (a data-flow analysis over each method).</li>
 * </ol>
 */
public final class PureInit {
    private PureInit() {}

    private static final Set<String> BOXES = Set.of(
        "java/lang/Double", "java/lang/Float", "java/lang/Integer", "java/lang/Long");

    /**
     * Earlier answers by class name, with the bytes they were given for: a worker defines the
     * same unchanged classes again in the warm loader of every patch set, and the answer depends
     * on the bytes alone.
     */
    private static final Map<String, Map.Entry<byte[], Boolean>> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();

    /** Whether class {@code name} with the class file {@code bytes} is pure-init (see the class comment). */
    public static boolean test(String name, byte[] bytes) {
        Map.Entry<byte[], Boolean> known = KNOWN.get(name);
        if (known != null && java.util.Arrays.equals(known.getKey(), bytes)) return known.getValue();
        boolean pure = whyNot(bytes) == null;
        KNOWN.put(name, Map.entry(bytes.clone(), pure));
        return pure;
    }

    /** Why the class in {@code bytes} is not pure-init, or null when it is. */
    public static String whyNot(byte[] bytes) {
        // The class and its fields first, without code: most classes are told apart there.
        ClassReader reader = new ClassReader(bytes);
        ClassNode cn = new ClassNode();
        reader.accept(cn, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (!"java/lang/Object".equals(cn.superName) || !cn.interfaces.isEmpty()) return "a superclass or interface";
        if (!cn.innerClasses.isEmpty() || cn.nestHostClass != null || cn.nestMembers != null
            || cn.outerClass != null) return "nested or enclosing classes";
        if ((cn.access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ENUM | Opcodes.ACC_ANNOTATION)) != 0) return "not a class";
        Set<String> tables = new HashSet<>();
        for (FieldNode f : cn.fields) {
            if ((f.access & Opcodes.ACC_STATIC) == 0) continue;
            if ((f.access & Opcodes.ACC_FINAL) == 0) return "static field " + f.name + " not final";
            Type t = Type.getType(f.desc);
            if (t.getSort() == Type.ARRAY) {
                if ((f.access & Opcodes.ACC_PRIVATE) == 0) return "static array " + f.name + " not private";
                if (t.getElementType().getSort() == Type.OBJECT) return "static field " + f.name + " an array of objects";
                tables.add(f.name);
            } else if (t.getSort() == Type.OBJECT && !f.desc.equals("Ljava/lang/String;")) {
                return "static field " + f.name + " of an object type";
            }
        }
        if (cn.methods.stream().noneMatch(m -> m.name.equals("<clinit>"))) return "no static initialiser";
        cn = new ClassNode();
        reader.accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        Map<String, MethodNode> methods = new HashMap<>();
        for (MethodNode m : cn.methods) methods.put(m.name + m.desc, m);
        MethodNode clinit = methods.get("<clinit>()V");
        Set<String> initOnly = initOnly(cn, methods);
        String nd = deterministic(cn, methods, clinit);
        if (nd != null) return nd;
        for (MethodNode m : cn.methods) {
            String key = m.name + m.desc;
            if (m == clinit || initOnly.contains(key)) continue;
            if (!tablesOnlyRead(cn.name, tables, m)) return m.name + m.desc + " may write or pass on a table";
        }
        return null;
    }

    /** Private static methods called only from the initialiser or from each other (never by handle). */
    private static Set<String> initOnly(ClassNode cn, Map<String, MethodNode> methods) {
        Set<String> only = new HashSet<>();
        for (MethodNode m : cn.methods) {
            int need = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC;
            if ((m.access & need) == need && !m.name.equals("<clinit>")) only.add(m.name + m.desc);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (MethodNode m : cn.methods) {
                String key = m.name + m.desc;
                boolean init = m.name.equals("<clinit>") || only.contains(key);
                for (AbstractInsnNode in : m.instructions) {
                    for (String callee : referenced(cn.name, in)) {
                        if ((!init || in.getOpcode() != Opcodes.INVOKESTATIC) && only.remove(callee)) changed = true;
                    }
                }
            }
        }
        return only;
    }

    /** Methods of class {@code self} that instruction {@code in} calls or makes a handle of. */
    private static List<String> referenced(String self, AbstractInsnNode in) {
        if (in instanceof MethodInsnNode) {
            MethodInsnNode mi = (MethodInsnNode) in;
            return mi.owner.equals(self) ? List.of(mi.name + mi.desc) : List.of();
        }
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        Object[] cst = in instanceof InvokeDynamicInsnNode
            ? ((InvokeDynamicInsnNode) in).bsmArgs
            : in instanceof LdcInsnNode ? new Object[] {((LdcInsnNode) in).cst} : new Object[0];
        for (Object c : cst) {
            if (c instanceof Handle && ((Handle) c).getOwner().equals(self)) {
                out.add(((Handle) c).getName() + ((Handle) c).getDesc());
            }
        }
        return out;
    }

    /** Why {@code from} or a method of the class it calls, transitively, may not be deterministic; null when all are. */
    private static String deterministic(ClassNode cn, Map<String, MethodNode> methods, MethodNode from) {
        Set<String> seen = new HashSet<>();
        java.util.ArrayDeque<MethodNode> todo = new java.util.ArrayDeque<>();
        todo.add(from);
        seen.add(from.name + from.desc);
        while (!todo.isEmpty()) {
            MethodNode m = todo.poll();
            String at = " in " + m.name + m.desc + ", reached from the initialiser";
            if ((m.access & Opcodes.ACC_SYNCHRONIZED) != 0) return "synchronized" + at;
            for (AbstractInsnNode in : m.instructions) {
                int op = in.getOpcode();
                switch (op) {
                    case Opcodes.GETSTATIC: case Opcodes.PUTSTATIC:
                        if (!((FieldInsnNode) in).owner.equals(cn.name)) return "another class's static field" + at;
                        break;
                    case Opcodes.GETFIELD: case Opcodes.PUTFIELD: case Opcodes.NEW:
                    case Opcodes.INVOKEVIRTUAL: case Opcodes.INVOKESPECIAL: case Opcodes.INVOKEINTERFACE:
                    case Opcodes.INVOKEDYNAMIC: case Opcodes.MONITORENTER: case Opcodes.MONITOREXIT:
                    case Opcodes.CHECKCAST: case Opcodes.INSTANCEOF:
                        return "objects or calls on them (opcode " + op + ")" + at;
                    case Opcodes.ANEWARRAY:
                        if (!((TypeInsnNode) in).desc.startsWith("[")) return "an array of objects" + at;
                        break;
                    case Opcodes.LDC: {
                        Object c = ((LdcInsnNode) in).cst;
                        if (!(c instanceof Number || c instanceof String)) return "a class or handle constant" + at;
                        break;
                    }
                    case Opcodes.INVOKESTATIC: {
                        MethodInsnNode mi = (MethodInsnNode) in;
                        if (mi.owner.equals(cn.name)) {
                            MethodNode callee = methods.get(mi.name + mi.desc);
                            if (callee == null) return "an inherited static method" + at;
                            if (seen.add(mi.name + mi.desc)) todo.add(callee);
                        } else if (!pureJdk(mi)) {
                            return "a call of " + mi.owner + "." + mi.name + at;
                        }
                        break;
                    }
                    default:
                        break;
                }
            }
        }
        return null;
    }

    /** A JDK static method whose result depends on its arguments only. */
    private static boolean pureJdk(MethodInsnNode mi) {
        if (mi.owner.equals("java/lang/Math") || mi.owner.equals("java/lang/StrictMath")) {
            return !mi.name.equals("random");
        }
        if (!BOXES.contains(mi.owner)) return false;
        Type ret = Type.getReturnType(mi.desc);
        if (ret.getSort() == Type.OBJECT || ret.getSort() == Type.ARRAY) return false;
        for (Type a : Type.getArgumentTypes(mi.desc)) {
            if (a.getSort() == Type.OBJECT || a.getSort() == Type.ARRAY) return false;
        }
        return true;
    }

    /** Whether method {@code m} only reads the tables (see the class comment, point 4). */
    private static boolean tablesOnlyRead(String self, Set<String> tables, MethodNode m) {
        if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return true;
        for (AbstractInsnNode in : m.instructions) {
            if (in.getOpcode() == Opcodes.PUTSTATIC && ((FieldInsnNode) in).owner.equals(self)) return false;
        }
        Taint t = new Taint(self, tables);
        try {
            new Analyzer<>(t).analyze(self, m);
        } catch (AnalyzerException e) {
            return false;
        }
        return !t.escaped;
    }

    /** A value: its size, and whether it is a table or a row of one. */
    private static final class V implements Value {
        final int size;
        final boolean table;

        V(int size, boolean table) {
            this.size = size;
            this.table = table;
        }

        @Override
        public int getSize() {
            return size;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof V && ((V) o).size == size && ((V) o).table == table;
        }

        @Override
        public int hashCode() {
            return size * 2 + (table ? 1 : 0);
        }
    }

    /** Follows tables through a method; {@code escaped} when one is used other than by reading it. */
    private static final class Taint extends Interpreter<V> {
        final String self;
        final Set<String> tables;
        boolean escaped;

        Taint(String self, Set<String> tables) {
            super(Opcodes.ASM9);
            this.self = self;
            this.tables = tables;
        }

        private V plain(Type t) {
            return t == null ? new V(1, false) : t == Type.VOID_TYPE ? null : new V(t.getSize(), false);
        }

        private void use(V v) {
            if (v != null && v.table) escaped = true;
        }

        @Override
        public V newValue(Type type) {
            return type == Type.VOID_TYPE ? null : new V(type == null ? 1 : type.getSize(), false);
        }

        @Override
        public V newOperation(AbstractInsnNode in) {
            if (in.getOpcode() == Opcodes.GETSTATIC) {
                FieldInsnNode f = (FieldInsnNode) in;
                return new V(Type.getType(f.desc).getSize(), f.owner.equals(self) && tables.contains(f.name));
            }
            switch (in.getOpcode()) {
                case Opcodes.LCONST_0: case Opcodes.LCONST_1: case Opcodes.DCONST_0: case Opcodes.DCONST_1:
                    return new V(2, false);
                case Opcodes.LDC: {
                    Object c = ((LdcInsnNode) in).cst;
                    return new V(c instanceof Long || c instanceof Double ? 2 : 1, false);
                }
                default:
                    return new V(1, false);
            }
        }

        @Override
        public V copyOperation(AbstractInsnNode in, V v) {
            return v;
        }

        @Override
        public V unaryOperation(AbstractInsnNode in, V v) {
            switch (in.getOpcode()) {
                case Opcodes.ARRAYLENGTH: case Opcodes.IFNULL: case Opcodes.IFNONNULL: case Opcodes.INSTANCEOF:
                    return new V(1, false);
                case Opcodes.CHECKCAST:
                    return v;
                case Opcodes.I2L: case Opcodes.I2D: case Opcodes.L2D: case Opcodes.F2L: case Opcodes.F2D:
                case Opcodes.LNEG: case Opcodes.DNEG: case Opcodes.D2L:
                    return new V(2, false);
                case Opcodes.GETFIELD:
                    use(v);
                    return plain(Type.getType(((FieldInsnNode) in).desc));
                default:
                    use(v);
                    return new V(1, false);
            }
        }

        @Override
        public V binaryOperation(AbstractInsnNode in, V a, V b) {
            switch (in.getOpcode()) {
                case Opcodes.AALOAD:
                    return new V(1, a.table);
                case Opcodes.IALOAD: case Opcodes.BALOAD: case Opcodes.CALOAD: case Opcodes.SALOAD:
                case Opcodes.FALOAD:
                    return new V(1, false);
                case Opcodes.LALOAD: case Opcodes.DALOAD:
                    return new V(2, false);
                case Opcodes.IF_ACMPEQ: case Opcodes.IF_ACMPNE:
                    return null;
                case Opcodes.LADD: case Opcodes.LSUB: case Opcodes.LMUL: case Opcodes.LDIV: case Opcodes.LREM:
                case Opcodes.LSHL: case Opcodes.LSHR: case Opcodes.LUSHR: case Opcodes.LAND: case Opcodes.LOR:
                case Opcodes.LXOR: case Opcodes.DADD: case Opcodes.DSUB: case Opcodes.DMUL: case Opcodes.DDIV:
                case Opcodes.DREM:
                    return new V(2, false);
                default:
                    use(a);
                    use(b);
                    return new V(1, false);
            }
        }

        @Override
        public V ternaryOperation(AbstractInsnNode in, V array, V index, V value) {
            use(array);
            use(value);
            return null;
        }

        @Override
        public V naryOperation(AbstractInsnNode in, List<? extends V> values) {
            for (V v : values) use(v);
            Type ret;
            if (in instanceof MethodInsnNode) ret = Type.getReturnType(((MethodInsnNode) in).desc);
            else if (in instanceof InvokeDynamicInsnNode) ret = Type.getReturnType(((InvokeDynamicInsnNode) in).desc);
            else ret = null; // MULTIANEWARRAY
            return plain(ret);
        }

        @Override
        public void returnOperation(AbstractInsnNode in, V value, V expected) {
            use(value);
        }

        @Override
        public V merge(V a, V b) {
            if (a.size != b.size) return new V(Math.min(a.size, b.size), a.table || b.table);
            return a.table == b.table || a.table ? a : b;
        }
    }
}
