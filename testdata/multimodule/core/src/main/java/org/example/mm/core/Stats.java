package org.example.mm.core;

/** Small statistics over int arrays. */
public final class Stats {
    private Stats() {
    }

    public static int sum(int[] xs) {
        int total = 0;
        for (int x : xs) {
            total += x;
        }
        return total;
    }

    public static int min(int[] xs) {
        requireNonEmpty(xs);
        int m = xs[0];
        for (int i = 1; i < xs.length; i++) {
            if (xs[i] < m) {
                m = xs[i];
            }
        }
        return m;
    }

    public static int max(int[] xs) {
        requireNonEmpty(xs);
        int m = xs[0];
        for (int i = 1; i < xs.length; i++) {
            if (xs[i] > m) {
                m = xs[i];
            }
        }
        return m;
    }

    public static double mean(int[] xs) {
        requireNonEmpty(xs);
        return (double) sum(xs) / xs.length;
    }

    /** x limited to [lo, hi]. */
    public static int clamp(int x, int lo, int hi) {
        return x < lo ? lo : (x > hi ? hi : x);
    }

    /** The smallest range holding every value. */
    public static Range span(int[] xs) {
        return new Range(min(xs), max(xs));
    }

    private static void requireNonEmpty(int[] xs) {
        if (xs.length == 0) {
            throw new IllegalArgumentException("no values");
        }
    }
}
