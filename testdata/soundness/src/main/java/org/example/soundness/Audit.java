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

    public static int charge(int amount) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
