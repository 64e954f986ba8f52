package org.example.soundness;

/** Charges a fee; can name its caller from the stack, as a logger inferring its caller does. */
public class Audit {
    /** A throwable a patch may keep; the test reads the method of its top frame. */
    public static Throwable lastMark;

    /** The name of the method that called this one. */
    public static String caller() {
        return new Throwable().getStackTrace()[1].getMethodName();
    }

    public static int charge(int amount) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
