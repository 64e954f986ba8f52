package org.example.statics;

/** A counter whose start comes from a system property, read once by the static initialiser. */
public class Counter {
    public static int count;

    static {
        count = Integer.getInteger("statics.start", 0);
    }

    public static int next() {
        return ++count;
    }
}
