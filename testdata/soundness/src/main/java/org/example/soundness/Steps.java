package org.example.soundness;

/** Squares filled in at class initialisation by a loop that ends only through its break. */
public class Steps {

    static final int[] TABLE = new int[8];
    static int filled;

    static {
        while (true) {
            TABLE[filled] = filled * filled;
            filled++;
            if (filled == 4) break;
        }
    }

    public static int at(int i) {
        return TABLE[i];
    }

    public static int count() {
        return filled;
    }
}
