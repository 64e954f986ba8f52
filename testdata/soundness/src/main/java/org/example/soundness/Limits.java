package org.example.soundness;

/** A process-wide upper bound, set through a parameter that shadows the static field. */
public class Limits {

    static int max = 100;

    public static void setMax(int max) {
        Limits.max = max;
    }

    public static int clamp(int x) {
        return x > max ? max : x;
    }
}
