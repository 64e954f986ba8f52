package org.example.purity;

/** Returns its argument. */
public final class Ids {

    private Ids() {
    }

    public static int id(int x) {
        int r = 0;
        r = x;
        return r;
    }
}
