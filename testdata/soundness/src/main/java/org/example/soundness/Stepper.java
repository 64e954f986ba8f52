package org.example.soundness;

/** Steps by ten without touching Defaults. */
public class Stepper {

    public static int next(int x) {
        int y;
        y = x + 10;
        return y;
    }
}
