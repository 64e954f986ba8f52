package org.example.stackjdk;

/** Keeps throwables made while a fee is computed; the test reads their stack traces later. */
public class Audit {
    /** The throwable kept last. */
    public static Throwable last;

    /** Keeps a new throwable, unthrown: its stack trace names the methods that called this. */
    public static void mark() {
        last = new Throwable("mark");
    }

    /** A new throwable, returned unthrown. */
    public static IllegalStateException made() {
        return new IllegalStateException("made");
    }

    /** The amount; throws for a negative one (the throwable leaves here thrown, kept by no one). */
    public static int check(int amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("negative: " + amount);
        }
        return amount;
    }

    /** Checks the amount, keeping what the check threw. */
    public static void guard(int amount) {
        try {
            check(amount);
        } catch (IllegalArgumentException e) {
            last = e;
        }
    }

    /** Notes where each item was noted, in a lambda the JDK's {@code forEach} runs. */
    public static void each(java.util.List<String> items) {
        items.forEach(item -> Receipt.notedIn = Receipt.innermostHere());
    }

    /** Notes where it was called from; of variable arity, so a call's argument count is not its descriptor's. */
    public static void noteAll(String... tags) {
        Receipt.notedIn = Receipt.innermostHere();
    }
}
