package org.example.flaky;

/** Keeps a value inside a range. */
public final class Clamp {

    private Clamp() {
    }

    /** Returns x limited to the closed range [lo, hi] (lo &lt;= hi). */
    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        if (x > hi) {
            return x;
        }
        return x;
    }
}
