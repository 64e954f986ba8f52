package org.example.soundness;

/** Charges a fee; can name its caller from the stack, as a logger inferring its caller does. */
public class Audit {
    /** A throwable a patch may keep; the test reads the method of its top frame. */
    public static Throwable lastMark;

    /** The name of the method that called this one. */
    public static String caller() {
        return new Throwable().getStackTrace()[1].getMethodName();
    }

    /** How many times {@link #countedCaller} ran. */
    public static int counted;

    /** Counts the call, then names its caller by a helper: a reader with an effect of its own. */
    public static String countedCaller() {
        counted++;
        return callerAt(2);
    }

    /** Names its caller through a supplier, as a logging facade with a message supplier does. */
    public static String lazyCaller() {
        return lazily(() -> callerAt(4));
    }

    static String lazily(java.util.function.Supplier<String> message) {
        return message.get();
    }

    /** The name of the method {@code depth} frames above this one. */
    static String callerAt(int depth) {
        return new Throwable().getStackTrace()[depth].getMethodName();
    }

    /** The method of this class that last closed a {@link Tab}. */
    public static String closedIn;

    /**
     * A resource that notes which method of this class closed it. (An iterable that does the same
     * is in testdata/stackjdk: the JDK may call {@code iterator()} back, so it would keep other
     * sets' patches here from the schemata.)
     */
    public static class Tab implements AutoCloseable {
        @Override
        public void close() {
            closedIn = innermostHere();
        }
    }

    /** The method of the innermost frame of this class (not of a nested one) that called this. */
    static String innermostHere() {
        StackTraceElement[] frames = new Throwable().getStackTrace();
        for (int i = 1; i < frames.length; i++) {
            if (frames[i].getClassName().equals(Audit.class.getName())) {
                return frames[i].getMethodName();
            }
        }
        return "?";
    }

    public static int charge(int amount) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
