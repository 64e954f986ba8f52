package org.example.unstable;

/** Closed ranges of integers. */
public final class Span {
    private Span() {}

    /** How many integers lie in [lo, hi]; 0 when hi is below lo. */
    public static int count(int lo, int hi) {
        if (hi < lo) {
            return 0;
        }
        return hi - lo;
    }

    /** Whether x lies in [lo, hi]. */
    public static boolean contains(int lo, int hi, int x) {
        return lo <= x && x <= hi;
    }
}
