package org.example.tables;

/** A table that a method writes: counts per key. */
public class Hits {
    private static final int[] COUNTS = new int[4];

    static {
        COUNTS[0] = 0;
    }

    public static int hit(int k) {
        return ++COUNTS[k];
    }
}
