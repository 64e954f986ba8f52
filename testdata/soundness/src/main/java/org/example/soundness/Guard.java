package org.example.soundness;

/** Rejects negative values with a NoisyError. */
public class Guard {

    public static int check(int x) {
        if (x < 0) {
            throw new NoisyError("negative");
        }
        return x;
    }
}
