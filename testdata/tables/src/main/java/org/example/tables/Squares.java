package org.example.tables;

/** A table of squares built once by the static initialiser and only read after. */
public class Squares {
    private static final int[] SQ = new int[16];

    static {
        fill();
    }

    private static void fill() {
        for (int i = 0; i < SQ.length; i++) {
            SQ[i] = i * i;
        }
    }

    public static int of(int i) {
        return SQ[i];
    }
}
