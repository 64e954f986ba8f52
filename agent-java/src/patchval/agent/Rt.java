// patchval agent: Rt owns what woven code calls at a patched location: the natives into Rust that
// pick the patch of a sequential round or drive the state-transition tree (declared in RtNatives,
// generated from protocol.toml), and the helpers that encode a captured state change canonically
// and replay a captured exception.
package patchval.agent;

import java.util.IdentityHashMap;

public final class Rt {
    private Rt() {}

    /**
     * The patch to execute at this visit of the location, or -1 (protocol.toml's
     * {@code select.none}). Called at every visit of a location outside the tree ({@link #tree} is called at every visit of one in it): a visit inside an enum's or interface's initialiser makes
     * the warm loader go after the test (Reset.patchedLocation), since what that initialiser
     * computes now depends on the patch and no reset runs it again for the next patch.
     */
    public static int choose(int site) {
        Reset.patchedLocation();
        return RtNatives.choose(site);
    }

    /** True when this round explores the state-transition tree; the first call of a tree site's visit. */
    public static boolean tree(int site) {
        Reset.patchedLocation();
        return RtNatives.tree(site);
    }

    /**
     * Tree rounds: how many patches to capture at this visit, -1 if unstable, -2 to run the chosen
     * patch directly (protocol.toml's {@code begin}).
     */
    public static int begin(int site) {
        return RtNatives.begin(site);
    }

    /** Tree rounds: the k-th patch to capture at this visit. */
    public static int patchAt(int site, int k) {
        return RtNatives.patchAt(site, k);
    }

    /** Tree rounds: the canonical state change captured for a patch. */
    public static void report(int site, int patch, String change) {
        RtNatives.report(site, patch, change);
    }

    /** Tree rounds: the patch whose captured change is replayed (moves down the tree). */
    public static int decide(int site) {
        return RtNatives.decide(site);
    }

    /** Marker of an out slot the patch did not write. */
    public static boolean unwritten(Object[] slots, int i) {
        return slots[i] == slots;
    }

    /** Tree rounds: the number of the current round (a new round forgets what earlier ones saw). */
    public static long round(int site) {
        return RtNatives.round(site);
    }

    /** Objects seen at the current visit of the location, numbered in order of first sight. */
    private static final IdentityHashMap<Object, Integer> VISIT = new IdentityHashMap<>();

    /** Exceptions that came out of a capture in the current round (they are not fresh any more). */
    private static final IdentityHashMap<Object, Boolean> ROUND_SEEN = new IdentityHashMap<>();

    private static long lastRound = Long.MIN_VALUE;

    /**
     * Tree rounds: the location is reached. Starts a visit (objects are numbered anew) and asks Rust
     * how many patches to capture: n >= 0 captures, -1 unstable, -2 run the chosen patch directly.
     */
    public static int enter(int site) {
        VISIT.clear();
        long r = round(site);
        if (r != lastRound) {
            lastRound = r;
            ROUND_SEEN.clear();
        }
        return begin(site);
    }

    /**
     * The canonical text of one capture's state change, compared by Rust to group patches.
     * {@code localKinds}/{@code fieldKinds} say per slot whether it holds a primitive
     * ({@link Protocol.Woven#PRIMITIVE}, compared by value) or a reference
     * ({@link Protocol.Woven#REFERENCE}, compared by identity: objects are numbered in order of first
     * sight at this visit, so two captures agree only on the very same object); a local no later
     * statement of the method reads ({@link Protocol.Woven#DEAD}) is left out. A thrown exception
     * created by the patch during this capture is compared by everything a test can read of it
     * (class, message, cause, suppressed, fields, frames above the patch); any other exception by
     * identity. No user code runs: an exception class overriding a method read here is compared by
     * identity. When the capture's numbering differs from the one it gets alone (as on a later
     * round, where only the representative is captured), both are returned, separated by NUL: the
     * first groups patches, the second checks the representative on later rounds.
     */
    public static String key(int control, Object result, boolean resultPrimitive, Throwable thrown,
            Object[] locals, String localKinds, Object[] fields, String fieldKinds, int patch) {
        java.util.List<Throwable> fresh = new java.util.ArrayList<>();
        // The first capture of a visit numbers its objects as it would alone: one pass is enough.
        boolean first = VISIT.isEmpty();
        String merge = encode(VISIT, fresh, control, result, resultPrimitive, thrown, locals, localKinds,
                fields, fieldKinds, patch);
        String alone = first ? merge : encode(new IdentityHashMap<>(), null, control, result,
                resultPrimitive, thrown, locals, localKinds, fields, fieldKinds, patch);
        for (Throwable t : fresh) ROUND_SEEN.put(t, Boolean.TRUE);
        if (thrown != null) ROUND_SEEN.put(thrown, Boolean.TRUE);
        return merge.equals(alone) ? merge : merge + Protocol.Woven.KEY_SEPARATOR + alone;
    }

    private static String encode(IdentityHashMap<Object, Integer> seen, java.util.List<Throwable> fresh,
            int control, Object result, boolean resultPrimitive, Throwable thrown, Object[] locals,
            String localKinds, Object[] fields, String fieldKinds, int patch) {
        Keyer k = new Keyer(seen, fresh, patch);
        k.b.append(control).append('|');
        k.slot(result, resultPrimitive);
        k.b.append('|');
        if (thrown != null) k.exception(thrown, 0);
        k.b.append('|');
        for (int i = 0; i < locals.length; i++) {
            char kind = localKinds.charAt(i);
            if (kind == Protocol.Woven.DEAD) k.b.append('D'); // read by nothing after the location
            else if (locals[i] == locals) k.b.append('U');
            else k.slot(locals[i], kind == Protocol.Woven.PRIMITIVE);
            k.b.append(',');
        }
        k.b.append('|');
        for (int i = 0; i < fields.length; i++) {
            k.slot(fields[i], fieldKinds.charAt(i) == Protocol.Woven.PRIMITIVE);
            k.b.append(',');
        }
        return k.b.toString();
    }

    /** Which exception classes override a method the key reads (then their objects key by identity). */
    private static final ClassValue<Boolean> PLAIN_THROWABLE = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            try {
                for (String m : new String[] {"getMessage", "getLocalizedMessage", "getCause", "getStackTrace"}) {
                    if (c.getMethod(m).getDeclaringClass() != Throwable.class) return Boolean.FALSE;
                }
                return Boolean.TRUE;
            } catch (ReflectiveOperationException | RuntimeException e) {
                // An Error (an overflow at a stack's end) propagates: ClassValue keeps no answer.
                return Boolean.FALSE;
            }
        }
    };

    /** One encoding pass over a capture. */
    private static final class Keyer {
        final StringBuilder b = new StringBuilder(64);
        final IdentityHashMap<Object, Integer> seen;
        final java.util.List<Throwable> fresh;
        final String unit;

        /** Fresh exceptions met in this capture, numbered for references back to them. */
        final IdentityHashMap<Object, Integer> freshHere = new IdentityHashMap<>();

        Keyer(IdentityHashMap<Object, Integer> seen, java.util.List<Throwable> fresh, int patch) {
            this.seen = seen;
            this.fresh = fresh;
            this.unit = Protocol.Woven.UNIT_PREFIX + patch;
        }

        void identity(Object v) {
            Integer n = seen.get(v);
            if (n == null) {
                n = seen.size();
                seen.put(v, n);
            }
            b.append('#').append(n);
        }

        /** A slot: by value when it holds a primitive, else by value and identity. */
        void slot(Object v, boolean primitive) {
            if (v == null) {
                b.append('N');
            } else if (v instanceof Throwable) {
                exception((Throwable) v, 0);
            } else if (v instanceof Enum) {
                b.append('E').append(v.getClass().getName()).append('.').append(((Enum<?>) v).name());
            } else {
                value(b, v);
                if (!primitive) identity(v);
            }
        }

        void exception(Throwable t, int depth) {
            Integer back = freshHere.get(t);
            if (back != null) {
                b.append("T^").append(back);
                return;
            }
            if (depth > 8 || seen.containsKey(t) || !isFresh(t)) {
                b.append('X');
                identity(t);
                return;
            }
            // Created by this capture: nothing else refers to it, so it is known by its contents.
            if (fresh != null) fresh.add(t);
            freshHere.put(t, freshHere.size());
            Class<?> c = t.getClass();
            b.append("T{").append(c.getName()).append(";m=");
            slot(t.getMessage(), false);
            b.append(";c=");
            Throwable cause = t.getCause();
            if (cause == null) b.append('N'); else exception(cause, depth + 1);
            b.append(";s=");
            for (Throwable s : t.getSuppressed()) {
                exception(s, depth + 1);
                b.append(',');
            }
            b.append(";f=");
            for (Class<?> k = c; k != Throwable.class && k != null; k = k.getSuperclass()) {
                for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                    if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) continue;
                    Object v;
                    try {
                        f.setAccessible(true);
                        v = f.get(t);
                    } catch (Throwable e) {
                        // A field this runtime may not read: the object counts by identity alone.
                        b.append('?');
                        identity(t);
                        continue;
                    }
                    b.append(f.getName()).append('=');
                    slot(v, f.getType().isPrimitive());
                    b.append(',');
                }
            }
            b.append(";t=");
            for (StackTraceElement e : t.getStackTrace()) {
                if (e.getMethodName().equals(unit)) break;
                b.append(e.getClassName()).append('.').append(e.getMethodName()).append(':')
                        .append(e.getLineNumber()).append(',');
            }
            b.append('}');
        }

        /** Created during this capture, inside this patch's unit, and never seen in this round before. */
        private boolean isFresh(Throwable t) {
            if (ROUND_SEEN.containsKey(t) || !PLAIN_THROWABLE.get(t.getClass())) return false;
            for (StackTraceElement e : t.getStackTrace()) {
                if (e.getMethodName().equals(unit)) return true;
            }
            return false;
        }
    }

    /** The value of a JDK value object (a wrapper or a string); 'O' for anything else. No user code runs. */
    private static void value(StringBuilder b, Object v) {
        Class<?> c = v.getClass();
        if (c == String.class) {
            String s = (String) v;
            b.append('S').append(s.length()).append(':').append(s);
        } else if (c == Double.class) {
            b.append('D').append(Double.doubleToRawLongBits((Double) v));
        } else if (c == Float.class) {
            b.append('F').append(Float.floatToRawIntBits((Float) v));
        } else if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class
                || c == Boolean.class || c == Character.class) {
            b.append(c.getSimpleName().charAt(0)).append(v);
        } else {
            b.append('O');
        }
    }

    /** Exception classes whose stack trace is read and written by Throwable's own code. */
    private static final ClassValue<Boolean> PLAIN_FRAMES = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            try {
                return c.getMethod("getStackTrace").getDeclaringClass() == Throwable.class
                        && c.getMethod("setStackTrace", StackTraceElement[].class).getDeclaringClass() == Throwable.class
                        && c.getMethod("getCause").getDeclaringClass() == Throwable.class;
            } catch (ReflectiveOperationException | RuntimeException e) {
                // An Error (an overflow at a stack's end) propagates: ClassValue keeps no answer.
                return Boolean.FALSE;
            }
        }
    };

    /**
     * Runs, once and at the bottom of the stack, the JDK code this runtime may first call at any
     * depth: where an exception leaves an isolation unit ({@link #framed}) or a capture meets a
     * throwable, deep in a recursion, maybe at the stack's end. A JDK class whose initialiser
     * first runs there fails with the overflow and stays failed for the life of the JVM (the
     * format of a stack trace with a JDK frame: {@code StackTraceElement$HashedModules}); every
     * later stack read in the worker, whatever the patch, would throw NoClassDefFoundError, where
     * plain validation's fresh JVM reads the stack. Called by the worker at start-up (Agent).
     */
    static void prime() {
        // Thread.getStackTrace's own frame is java.base's: its format reads HashedModules.
        StackTraceElement[] here = Thread.currentThread().getStackTrace();
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : here) {
            b.append(e);
        }
        Throwable t = new IllegalStateException("patchval: priming", new Throwable());
        t.addSuppressed(new Throwable());
        framed(t, "prime");
        PLAIN_THROWABLE.get(t.getClass());
        t.setStackTrace(here);
        b.append(t.getStackTrace().length);
    }

    /**
     * An exception leaving a patch's isolation unit, with the frames plain validation would show:
     * the unit's frame ({@code __pv_p<i>}) and the frame of the enclosing method that called it
     * (the stub) become one frame of the enclosing method, as where the statement sits in the
     * plainly patched file (line numbers stay the woven file's; failure details map them back).
     * The same for its causes and suppressed exceptions. Returns {@code t}.
     */
    public static Throwable framed(Throwable t, String method) {
        try {
            frame(t, method, new IdentityHashMap<>());
        } catch (Throwable ignored) {
            // Frames are cosmetic to the verdict machinery; never replace the exception itself.
        }
        return t;
    }

    /** {@code __pv_p<digits>} ({@link Protocol.Woven#UNIT_PREFIX}): a generated isolation unit. */
    private static boolean isUnit(String m) {
        int prefix = Protocol.Woven.UNIT_PREFIX.length();
        if (!m.startsWith(Protocol.Woven.UNIT_PREFIX) || m.length() == prefix) return false;
        for (int i = prefix; i < m.length(); i++) {
            if (!Character.isDigit(m.charAt(i))) return false;
        }
        return true;
    }

    private static void frame(Throwable t, String method, IdentityHashMap<Object, Boolean> done) {
        if (t == null || done.put(t, Boolean.TRUE) != null || !PLAIN_FRAMES.get(t.getClass())) return;
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i + 1 < st.length; i++) {
            String m = st[i].getMethodName();
            if (!isUnit(m)) continue;
            StackTraceElement caller = st[i + 1];
            if (!caller.getMethodName().equals(method) || !caller.getClassName().equals(st[i].getClassName())) continue;
            StackTraceElement[] out = new StackTraceElement[st.length - 1];
            System.arraycopy(st, 0, out, 0, i);
            StackTraceElement u = st[i];
            // Java 8's constructor (Rt.java is also compiled at that level): project classes come
            // from an unnamed loader in the unnamed module, so no loader or module is lost.
            out[i] = new StackTraceElement(u.getClassName(), method, u.getFileName(), u.getLineNumber());
            System.arraycopy(st, i + 2, out, i + 1, st.length - i - 2);
            t.setStackTrace(out);
            break;
        }
        frame(t.getCause(), method, done);
        for (Throwable s : t.getSuppressed()) frame(s, method, done);
    }

    /** Rethrows a captured exception, checked or not (checked exceptions are a compile-time notion). */
    public static RuntimeException rethrow(Throwable t) {
        Rt.<RuntimeException>sneaky(t);
        return new IllegalStateException("unreachable");
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
