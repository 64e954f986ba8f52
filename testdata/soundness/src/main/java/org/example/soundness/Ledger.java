package org.example.soundness;

/**
 * Charges a fee at a rate. A subclass in the tests overrides {@code rate()} with a stack reader;
 * {@link Probe} has a {@code scale()} that reads the stack, unlike this class's own.
 */
public class Ledger {
    /** A field that the local {@code fee} of {@link #charge} hides after its declaration. */
    public static int fee;

    /** The method that called an override of {@code rate()} that names its caller. */
    public static String rateCaller;

    public int rate() {
        return 10;
    }

    public int scale() {
        return 10;
    }

    public int charge(int amount) {
        int fee = amount / scale();
        return amount + fee;
    }

    /** A class-path method of the same name and arity as {@link Ledger#scale()}, reading the stack. */
    public static class Probe {
        public static int scale() {
            return new Throwable().getStackTrace().length;
        }
    }
}
