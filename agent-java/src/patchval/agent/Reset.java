// patchval agent: Reset owns the static-state reset of warm class loaders (WarmLoader): the current
// test generation, which resettable class was last initialised in which generation, and the lazy
// re-initialisation that instrumented code triggers wherever the JVM would initialise the class.
package patchval.agent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A class loaded by a {@link WarmLoader} whose static state can change (a class, not an interface
 * nor an enum, with a static initialiser or a static field that is not a compile-time constant) gets
 * an id, and every place where the JVM would initialise it — a static field access, {@code new},
 * entry into one of its static methods or constructors — first calls {@link #touch(int)}. When the
 * class was last initialised in an earlier generation (an earlier test), touch does what a fresh
 * class loader would do at that point: it initialises the resettable superclass, sets every static
 * field to its default value and runs the class's static initialiser again. A failure is what the
 * JVM makes of it: the initialiser's Error (or an ExceptionInInitializerError around anything else)
 * the first time, NoClassDefFoundError at every later touch of that generation.
 *
 * <p>The JVM's own first initialisation runs the original initialiser through the instrumented
 * {@code <clinit>}, which reports to {@link #jvmInit} and {@link #jvmInitFailed} instead of letting
 * the class become erroneous for the life of the loader.
 */
public final class Reset {
    private Reset() {}

    /** The current test generation; {@link #nextGeneration} moves it between tests. */
    public static int gen = 1;

    /** Per id: the generation the class was last initialised in (0 = not yet in this loader). */
    private static int[] inited = new int[1024];
    /** Per id: the generation whose initialisation failed (0 = none). */
    private static int[] failed = new int[1024];
    /** Per id: the initialiser's throwable, not yet reported to a caller in its generation. */
    private static Throwable[] pending = new Throwable[1024];
    /** Per id: whether the JVM ran the class's {@code <clinit>} already. */
    private static boolean[] jvmDone = new boolean[1024];
    /**
     * Per id: the class is pure-init (PureInit: private final tables built deterministically and
     * never written after), so once initialised it keeps its state across generations; cleared
     * for good when a test reaches one of its static fields by reflection.
     */
    private static boolean[] pure = new boolean[1024];
    private static final List<Entry> entries = new ArrayList<>();
    private static final Map<Object, Integer> ids = new HashMap<>();
    private static final Object LOCK = new Object();
    /** Re-initialisations since the last {@link #takeCount}, for telemetry. */
    private static int reinits;

    /** What re-initialising class {@code id} needs. */
    private static final class Entry {
        final WarmLoader loader;
        final String name;
        final String superName;
        MethodHandle zero;
        MethodHandle clinit;

        Entry(WarmLoader loader, String name, String superName) {
            this.loader = loader;
            this.name = name;
            this.superName = superName;
        }
    }

    /** The id of resettable class {@code name} of {@code loader}, allocated on first request. */
    static int idOf(WarmLoader loader, String name, String superName) {
        synchronized (LOCK) {
            List<Object> key = List.of(loader, name);
            Integer id = ids.get(key);
            if (id != null) return id;
            int n = entries.size();
            entries.add(new Entry(loader, name, superName));
            ids.put(key, n);
            if (n >= inited.length) {
                int size = inited.length * 2;
                inited = java.util.Arrays.copyOf(inited, size);
                failed = java.util.Arrays.copyOf(failed, size);
                pending = java.util.Arrays.copyOf(pending, size);
                jvmDone = java.util.Arrays.copyOf(jvmDone, size);
                pure = java.util.Arrays.copyOf(pure, size);
                capture = java.util.Arrays.copyOf(capture, size);
            }
            return n;
        }
    }

    /** The instrumenter found resettable class {@code name} of {@code loader} pure-init (its superclass is Object). */
    static void pure(WarmLoader loader, String name) {
        int id = idOf(loader, name, null);
        synchronized (LOCK) {
            pure[id] = true;
        }
    }

    /** The classes kept across tests as pure-init now (binary names, sorted), for warm-check's summary. */
    static List<String> pureNames() {
        synchronized (LOCK) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                if (pure[i] && entries.get(i) != null) out.add(entries.get(i).name.replace('/', '.'));
            }
            java.util.Collections.sort(out);
            return out;
        }
    }

    /** The id of a resettable class of {@code loader}, or -1 when it has none (yet). */
    static int existingId(WarmLoader loader, String name) {
        synchronized (LOCK) {
            Integer id = ids.get(List.of(loader, name));
            return id == null ? -1 : id;
        }
    }

    /**
     * Drops what Reset knows of {@code loader}'s classes (the loader is being replaced), so that
     * neither it nor its classes stay reachable from here. Their ids are not reused.
     */
    static void forget(WarmLoader loader) {
        synchronized (LOCK) {
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entries.get(i);
                if (e != null && e.loader == loader) {
                    entries.set(i, null);
                    pending[i] = null;
                }
            }
            ids.keySet().removeIf(k -> ((List<?>) k).get(0) == loader);
        }
        synchronized (stripped) {
            stripped.removeIf(k -> k.get(0) == loader);
        }
    }

    /** Starts a new test: every resettable class is stale until touched again. */
    static void nextGeneration() {
        synchronized (LOCK) {
            gen++;
        }
    }

    static int takeCount() {
        synchronized (LOCK) {
            int n = reinits;
            reinits = 0;
            return n;
        }
    }

    /** Initialisers of enums and interfaces running now, over all threads (ResetTransformer's marks). */
    static volatile int initDepth;
    /** Whether a patched location was reached while such an initialiser ran, since {@link #takePatchedInInit}. */
    private static volatile boolean patchedInInit;

    /**
     * Accesses to the static fields of resettable classes (not pure-init), and failed
     * initialisations of such classes, while such an initialiser ran ({@link #field}): its state
     * may then hold or feed what the reset puts back in every test, so Kept does not keep its class.
     */
    private static volatile int initTouches;
    /** Per thread, {@link #initTouches} at the start of each initialiser running now: [0] the count. */
    private static final ThreadLocal<int[]> initStarts = ThreadLocal.withInitial(() -> new int[9]);

    /**
     * {@link #initDepth} as a plain field, for the guards' fast path: the thread that runs an
     * initialiser sees its own writes, and a touch by another thread is no part of that initialiser.
     */
    private static int inInit;

    public static synchronized void enterInit() {
        initDepth++;
        inInit = initDepth;
        int[] st = initStarts.get();
        if (st[0] + 1 >= st.length) {
            st = java.util.Arrays.copyOf(st, st.length * 2);
            initStarts.set(st);
        }
        st[++st[0]] = initTouches;
    }

    /**
     * Last call of an enum's or interface's initialiser that returns. One that reached the static
     * state of a resettable class (not pure-init) counts as sticky, as Kept refuses to keep it: the
     * reset puts that class back before every later test, where a fresh loader would run this
     * initialiser again and write it again (jsoup's {@code EscapeMode} fills
     * {@code Entities.multipoints}; testdata/kept's {@code Shade}, whose fields alone would not
     * make it sticky, fills {@code Palette}). One that only made objects of such classes whose
     * constructors reach no static field does not (jackson-core's {@code PrettyPrinter},
     * testdata/kept's {@code Pen}): docs/warm-loaders.md argues why.
     */
    public static synchronized void exitInit() {
        if (initTouchedResettable()) sticky();
        pop();
    }

    /**
     * In the handler that a thrown initialiser of an enum or interface leaves through: the JVM
     * marks the class erroneous for the life of the loader, so a later test would get
     * NoClassDefFoundError where a fresh loader runs the initialiser again (and throws as it did).
     */
    public static synchronized void exitInitFailed() {
        sticky();
        pop();
    }

    private static void pop() {
        if (initDepth > 0) initDepth--;
        inInit = initDepth;
        int[] st = initStarts.get();
        if (st[0] > 0) st[0]--;
    }

    /** Whether the innermost initialiser the thread runs reached a resettable class's static state (Kept). */
    static boolean initTouchedResettable() {
        int[] st = initStarts.get();
        return st[0] == 0 || st[st[0]] != initTouches;
    }

    private static void touchedInInit(int id) {
        if (!pure[id]) initTouches++;
    }

    /** At a patched location (Rt.choose): the state an enum or interface keeps may now depend on the patch. */
    static void patchedLocation() {
        if (initDepth > 0) patchedInInit = true;
    }

    /** Whether a patched location was reached inside such an initialiser since the last call; clears the mark. */
    static boolean takePatchedInInit() {
        boolean was = patchedInInit;
        patchedInInit = false;
        return was;
    }

    /**
     * Sticky classes (ResetTransformer) initialised since {@link #takeSticky}, less those Kept kept.
     */
    private static final java.util.concurrent.atomic.AtomicInteger sticky = new java.util.concurrent.atomic.AtomicInteger();

    /** First call in the initialiser of an enum or interface whose state Reset cannot put back. */
    public static void sticky() {
        sticky.incrementAndGet();
    }

    /** A sticky class's initialiser ended and Kept keeps the class: it no longer counts. */
    static void unstick() {
        sticky.updateAndGet(n -> n > 0 ? n - 1 : 0);
    }

    /** Whether a sticky class was initialised (and not kept) since the last call; clears the mark. */
    static boolean takeSticky() {
        return sticky.getAndSet(0) > 0;
    }

    /**
     * Called by instrumented code on entry to a static method or constructor of class {@code id}
     * (or of a subclass guarded as it) that reaches no static field of the class: the JVM would
     * initialise the class there. Running such code, or the class's own initialiser, is no
     * reason for an enum's or interface's initialiser to be sticky (see {@link #field}).
     */
    public static void touch(int id) {
        if (inited[id] != gen) slow(id);
    }

    /**
     * {@link #touch} before a {@code getstatic}/{@code putstatic} of a field of class {@code id},
     * and on entry to one of its static methods or constructors that reads or writes its static
     * fields (ResetTransformer.ownStaticUsers). While an enum's or interface's initialiser
     * runs, such an access counts against it ({@link #initTouchedResettable}): its state may then
     * hold or feed state the reset puts back before every later test.
     */
    public static void field(int id) {
        if (inited[id] != gen) slow(id);
        if (inInit > 0) touchedInInit(id);
    }

    /** First line of an instrumented {@code <clinit>}: the JVM initialises class {@code id}. */
    public static void jvmInit(int id) {
        synchronized (LOCK) {
            jvmDone[id] = true;
            inited[id] = gen;
            if (pure[id] && covered(id)) capture[id] = Cov.beginInit();
        }
    }

    /** Last line of an instrumented {@code <clinit>} whose initialiser finished. */
    public static void jvmInitDone(int id) {
        Cov.Capture c = takeCapture(id);
        if (c != null) Cov.endInit(c, id);
    }

    /** An instrumented {@code <clinit>} caught its initialiser's throwable. */
    public static void jvmInitFailed(Throwable t, int id) {
        if (initDepth > 0) initTouches++;
        Cov.Capture c = takeCapture(id);
        if (c != null) Cov.endInit(c, -1);
        synchronized (LOCK) {
            inited[id] = 0;
            failed[id] = gen;
            pending[id] = t;
        }
    }

    /**
     * Per id: the coverage a pure-init class's first initialisation is making in init's coverage
     * pass (Cov.beginInit), until it ends. Every later test that touches the class is given what
     * the initialiser executed (Cov.replay), since a fresh loader would run it in that test.
     */
    private static Cov.Capture[] capture = new Cov.Capture[1024];

    private static Cov.Capture takeCapture(int id) {
        synchronized (LOCK) {
            Cov.Capture c = capture[id];
            capture[id] = null;
            return c;
        }
    }

    /** Whether class {@code id} belongs to a loader with coverage probes (init's coverage pass). */
    private static boolean covered(int id) {
        Entry e = entries.get(id);
        return e != null && e.loader.covered() != null;
    }

    private static void slow(int id) {
        Throwable fail;
        synchronized (LOCK) {
            int g = gen;
            if (inited[id] == g) return;
            Entry e = entries.get(id);
            // A class of a replaced loader, still running in a thread a test left behind.
            if (e == null) return;
            if (failed[id] == g) {
                fail = pending[id];
                if (!keepPending) pending[id] = null;
                if (fail == null) {
                    throw new NoClassDefFoundError("Could not initialize class " + e.name.replace('/', '.'));
                }
            } else if (!jvmDone[id]) {
                // The JVM has not initialised the class in this loader yet: let it, now.
                try {
                    Class.forName(e.name.replace('/', '.'), true, e.loader);
                } catch (ClassNotFoundException ex) {
                    throw new NoClassDefFoundError(e.name);
                }
                if (failed[id] != g) return;
                fail = pending[id];
                if (!keepPending) pending[id] = null;
            } else if (pure[id] && inited[id] > 0 && (!covered(id) || Cov.replay(id))) {
                // Initialised without failure in an earlier generation: its state is what a fresh
                // loader's initialiser would build now. In the coverage pass, the test is given
                // what that initialiser executed (unless no record was made: it runs again then).
                inited[id] = g;
                return;
            } else {
                fail = reinit(id, e, g);
                if (fail == null) return;
                pending[id] = keepPending ? fail : null;
            }
        }
        // A class that fails to initialise while an enum's or interface's initialiser runs: a
        // fresh loader would see it fail (and the initialiser with it) in every later test.
        if (initDepth > 0) initTouches++;
        if (fail instanceof Error) throw (Error) fail;
        throw new ExceptionInInitializerError(fail);
    }

    /** Re-runs class {@code id}'s initialisation in generation {@code g}; its throwable, or null. */
    private static Throwable reinit(int id, Entry e, int g) {
        // As the JVM does: the superclass first, and this class counts as initialised (for this
        // thread, which holds LOCK) while its initialiser runs.
        if (e.superName != null) {
            int sup = existingId(e.loader, e.superName);
            if (sup >= 0) touch(sup);
        }
        inited[id] = g;
        reinits++;
        try {
            if (e.zero == null) {
                Class<?> c = Class.forName(e.name.replace('/', '.'), false, e.loader);
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
                e.zero = l.findStatic(c, "__pv$zero", MethodType.methodType(void.class));
                e.clinit = l.findStatic(c, "__pv$clinit", MethodType.methodType(void.class));
            }
            e.zero.invokeExact();
            e.clinit.invokeExact();
            return null;
        } catch (Throwable t) {
            inited[id] = 0;
            failed[id] = g;
            return t;
        }
    }

    /**
     * After {@code Class.forName(name)} in instrumented code, and before a test class is handed to
     * JUnit (which reads its static fields reflectively): a class the JVM initialised in an earlier
     * generation is brought up to date, as a fresh loader would initialise it now.
     */
    public static Class<?> initialized(Class<?> c) {
        if (c == null || !(c.getClassLoader() instanceof WarmLoader)) return c;
        WarmLoader loader = (WarmLoader) c.getClassLoader();
        for (Class<?> k = c; k != null && k.getClassLoader() == loader; k = k.getSuperclass()) {
            int id = existingId(loader, k.getName().replace('.', '/'));
            if (id >= 0) {
                if (jvmDone[id]) touch(id);
                break;
            }
        }
        return c;
    }

    /**
     * {@link #initialized} for a test class about to run: a failing initialiser is left for the
     * test's own first access to report, as the JVM would report it there.
     */
    static void prepare(Class<?> c) {
        synchronized (LOCK) {
            keepPending = true;
            try {
                initialized(c);
            } catch (Throwable t) {
                // reported again at the first access
            } finally {
                keepPending = false;
            }
        }
    }

    /** Set while {@link #prepare} runs: a failure's throwable stays pending. */
    private static boolean keepPending;

    /** Fields that lost their final (WarmLoader, internal class name, field name). */
    private static final java.util.Set<List<Object>> stripped = new java.util.HashSet<>();

    static void stripped(WarmLoader loader, String internalName, String field) {
        synchronized (stripped) {
            stripped.add(List.of(loader, internalName, field));
        }
    }

    /** Whether reflection must see {@code f} as final although its class file no longer says so. */
    public static boolean isStripped(Field f) {
        ClassLoader l = f.getDeclaringClass().getClassLoader();
        if (!(l instanceof WarmLoader)) return false;
        synchronized (stripped) {
            return stripped.contains(List.of(l, f.getDeclaringClass().getName().replace('.', '/'), f.getName()));
        }
    }

    /** Stands in for {@code Field.getModifiers()} in instrumented code. */
    public static int modifiers(Field f) {
        int m = f.getModifiers();
        return isStripped(f) ? m | java.lang.reflect.Modifier.FINAL : m;
    }

    /** Stands in for {@code Field.toString()}, in the JDK's format. */
    public static String fieldString(Field f) {
        if (!isStripped(f)) return f.toString();
        return java.lang.reflect.Modifier.toString(modifiers(f)) + " " + f.getType().getTypeName() + " "
            + f.getDeclaringClass().getTypeName() + "." + f.getName();
    }

    /** Stands in for {@code Field.toGenericString()}, in the JDK's format. */
    public static String fieldGenericString(Field f) {
        if (!isStripped(f)) return f.toGenericString();
        return java.lang.reflect.Modifier.toString(modifiers(f)) + " " + f.getGenericType().getTypeName() + " "
            + f.getDeclaringClass().getTypeName() + "." + f.getName();
    }

    /**
     * Throws what {@code f.<method>(null, value)} throws on a static final field when the caller
     * may access it (JDK 17's messages): {@code set} an IllegalAccessException naming the value's
     * class; a primitive setter whose type widens to the field's an IllegalAccessException with
     * the widened value, any other an IllegalArgumentException. Returns when not accessible.
     */
    public static void finalSet(boolean accessible, Field f, Object value, String method) throws IllegalAccessException {
        if (!accessible) return;
        String to = "Can not set static final " + f.getType().getName() + " field " + f.getDeclaringClass().getName()
            + "." + f.getName() + " to ";
        if (method.equals("set")) {
            throw new IllegalAccessException(to + (value == null ? "null value" : value.getClass().getName()));
        }
        String from = method.substring(3).toLowerCase(java.util.Locale.ROOT);
        Class<?> type = f.getType();
        if (type.isPrimitive() && widens(from, type.getName())) {
            throw new IllegalAccessException(to + "(" + type.getName() + ")" + widened(value, type.getName()));
        }
        throw new IllegalArgumentException(to + "(" + from + ")" + value);
    }

    private static boolean widens(String from, String to) {
        if (from.equals(to)) return true;
        switch (from) {
            case "byte": return "short int long float double".contains(to);
            case "short": case "char": return "int long float double".contains(to);
            case "int": return "long float double".contains(to);
            case "long": return "float double".contains(to);
            case "float": return to.equals("double");
            default: return false;
        }
    }

    private static String widened(Object v, String to) {
        if (v instanceof Boolean) return v.toString();
        long n = v instanceof Character ? (Character) v : ((Number) v).longValue();
        if (!(v instanceof Character) && (v instanceof Float || v instanceof Double)) {
            double d = ((Number) v).doubleValue();
            return to.equals("float") ? Float.toString((float) d) : Double.toString(d);
        }
        switch (to) {
            case "float": return Float.toString((float) n);
            case "double": return Double.toString((double) n);
            case "char": return String.valueOf((char) n);
            default: return Long.toString(n);
        }
    }

    /** Stands in for {@code Class.forName(name, initialize, loader)} in instrumented code. */
    public static Class<?> forName(String name, boolean initialize, ClassLoader loader)
            throws ClassNotFoundException {
        Class<?> c = Class.forName(name, initialize, loader);
        return initialize ? initialized(c) : c;
    }

    /**
     * After instrumented code obtained a static field reflectively: its class is brought up to
     * date, since reading or writing the field through reflection would initialise it in a fresh
     * loader (a little earlier than the JVM would, never in a test that does not reach the field).
     */
    public static Field field(Field f) {
        if (f != null && java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
            initialized(f.getDeclaringClass());
            notPure(f.getDeclaringClass());
            if (initDepth > 0) reflected(f.getDeclaringClass());
        }
        return f;
    }

    /** A test reached a static field of {@code c} by reflection: it may write a table, so c is reset as usual from now on. */
    private static void notPure(Class<?> c) {
        if (!(c.getClassLoader() instanceof WarmLoader)) return;
        int id = existingId((WarmLoader) c.getClassLoader(), c.getName().replace('.', '/'));
        if (id < 0) return;
        synchronized (LOCK) {
            pure[id] = false;
        }
    }

    /** An enum's or interface's initialiser reached a static field of {@code c} by reflection: as {@link #field(int)}. */
    private static void reflected(Class<?> c) {
        if (!(c.getClassLoader() instanceof WarmLoader)) return;
        int id = existingId((WarmLoader) c.getClassLoader(), c.getName().replace('.', '/'));
        if (id >= 0) touchedInInit(id);
    }

    public static Field[] fields(Field[] fs) {
        if (fs != null) {
            for (Field f : fs) field(f);
        }
        return fs;
    }
}
