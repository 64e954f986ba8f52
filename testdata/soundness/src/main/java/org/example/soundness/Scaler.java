package org.example.soundness;

/** Scales by an overridable factor. */
public class Scaler {

    public int factor() {
        return 2;
    }

    public int scale(int x) {
        int y;
        y = x * factor();
        return y;
    }
}
