package org.example.soundness;

/** Sums in a loop: the loop body is visited once per element. */
public class Series {

    public static long sumBelow(int n) {
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += i;
        }
        return acc;
    }
}
