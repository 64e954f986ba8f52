package org.example.soundness;

/** Hands out units of a quota; an exhausted quota is a CountedError. */
public class Quota {

    public static int take(int left) {
        if (left <= 0) {
            throw new CountedError("quota exhausted");
        }
        return left - 1;
    }
}
