package org.example.selection;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Arithmetic progressions, produced by an anonymous iterator. */
public final class Ranges {
    private Ranges() {
    }

    /** from, from + step, ... while below to; the step must be positive. */
    public static Iterator<Integer> stepping(final int from, final int to, final int step) {
        if (step <= 0) {
            throw new IllegalArgumentException("step must be positive");
        }
        return new Iterator<Integer>() {
            private int cur = from;

            @Override
            public boolean hasNext() {
                return cur < to;
            }

            @Override
            public Integer next() {
                if (cur >= to) {
                    throw new NoSuchElementException();
                }
                int v = cur;
                cur += step;
                return v;
            }
        };
    }

    public static int sum(int from, int to, int step) {
        int total = 0;
        for (Iterator<Integer> it = stepping(from, to, step); it.hasNext();) {
            total += it.next();
        }
        return total;
    }
}
