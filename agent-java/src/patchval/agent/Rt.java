// patchval agent: Rt owns what woven code calls at a patched location: the natives into Rust that
// pick the patch of a sequential round or drive the state-transition tree, and the helpers that
// encode a captured state change canonically and replay a captured exception.
package patchval.agent;

public final class Rt {
    private Rt() {}

    /** Sequential rounds: the patch to execute this round, or -1 (implemented in Rust). */
    public static native int choose(int site);

    /** True when this round explores the state-transition tree (implemented in Rust). */
    public static native boolean tree(int site);

    /** Tree rounds: the location is reached; returns how many patches to capture, or -1 if unstable. */
    public static native int begin(int site);

    /** Tree rounds: the k-th patch to capture at this visit. */
    public static native int patchAt(int site, int k);

    /** Tree rounds: the canonical state change captured for a patch. */
    public static native void report(int site, int patch, String change);

    /** Tree rounds: the patch whose captured change is replayed (moves down the tree). */
    public static native int decide(int site);

    /** Marker of an out slot the patch did not write. */
    public static boolean unwritten(Object[] slots, int i) {
        return slots[i] == slots;
    }

    /**
     * The canonical text of a state change: control code, result, exception class and message,
     * then every carried value. Floating point compares by bit pattern; strings are length-prefixed.
     */
    public static String key(int control, Object result, Throwable thrown, Object[] locals, Object[] fields) {
        StringBuilder b = new StringBuilder(64);
        b.append(control).append('|');
        value(b, result);
        b.append('|');
        if (thrown != null) {
            String m;
            try {
                m = thrown.getMessage();
            } catch (Throwable t) {
                m = "<message threw " + t.getClass().getName() + ">";
            }
            b.append(thrown.getClass().getName()).append(':');
            value(b, m);
        }
        b.append('|');
        for (int i = 0; i < locals.length; i++) {
            if (locals[i] == locals) b.append('U'); else value(b, locals[i]);
            b.append(',');
        }
        b.append('|');
        for (Object f : fields) {
            value(b, f);
            b.append(',');
        }
        return b.toString();
    }

    private static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append('N');
        } else if (v instanceof String) {
            String s = (String) v;
            b.append('S').append(s.length()).append(':').append(s);
        } else if (v instanceof Double) {
            b.append('D').append(Double.doubleToRawLongBits((Double) v));
        } else if (v instanceof Float) {
            b.append('F').append(Float.floatToRawIntBits((Float) v));
        } else if (v instanceof Number || v instanceof Boolean || v instanceof Character) {
            b.append(v.getClass().getSimpleName().charAt(0)).append(v);
        } else if (v instanceof Enum) {
            b.append('E').append(v.getClass().getName()).append('.').append(((Enum<?>) v).name());
        } else {
            // Not a value type: identity only, so distinct objects never look equal.
            b.append('O').append(System.identityHashCode(v));
        }
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
