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

    /** The length of an object's text, appended by {@code StringBuilder.append(Object)}: JDK code outside the allowlist that calls the object's {@code toString()} back. */
    public static int appended(Object tag) {
        return new StringBuilder().append(tag).length();
    }

    /** Sorts two names with an {@link Order}, an object (not a lambda) the JDK's {@code Collections.sort} calls back. */
    public static void sortNames() {
        java.util.List<String> names = new java.util.ArrayList<>(java.util.Arrays.asList("b", "a"));
        java.util.Collections.sort(names, new Order());
    }

    /** Runs a task on the calling thread through {@code Thread.run}, which calls the task's {@code run()} back. */
    public static void runHere(Runnable task) {
        new Thread(task).run();
    }

    /** An order that notes where it compared. */
    static class Order implements java.util.Comparator<String> {
        @Override
        public int compare(String a, String b) {
            Receipt.notedIn = Receipt.innermostHere();
            return a.compareTo(b);
        }
    }

    /** A task that notes where it ran. */
    public static class Tick implements Runnable {
        @Override
        public void run() {
            Receipt.notedIn = Receipt.innermostHere();
        }
    }
}
