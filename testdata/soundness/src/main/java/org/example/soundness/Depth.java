package org.example.soundness;

/** Counts down a chain by recursion; a chain too long for the stack counts as broken (-1). */
public class Depth {

    public static int reach(int n) {
        try {
            return down(n, 0);
        } catch (StackOverflowError e) {
            return -1;
        }
    }

    static int down(int n, int d) {
        if (d >= n) {
            return d;
        }
        return down(n, d + 1);
    }
}
