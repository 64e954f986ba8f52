package org.example.dedup;

/** Holds the location with test-equivalence classes known by construction (see README). */
public final class Picker {

    private Picker() {
    }

    /** Returns v. Called by exactly one test, exactly once. */
    public static int pick(int v) {
        int r = 0;
        r = v;
        return r;
    }
}
