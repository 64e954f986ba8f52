package org.example.purity;

/** Rejects negative values. */
public final class Guard {

    private Guard() {
    }

    public static int check(int x) {
        if (x < 0) {
            throw new IllegalArgumentException();
        }
        return x;
    }
}
