package org.example.purity;

/** A scale factor that a test subclass overrides (a call of `factor()` is virtual). */
public class Scaler {

    public int factor() {
        return 2;
    }

    public int scale(int x) {
        int y = 0;
        y = x * 2;
        return y;
    }
}
