package org.example.soundness;

/**
 * Weights summed by a loop whose body declares a local that the rest of the body reads and adds
 * it under an `if` without braces: patches there that a statement's own location cannot hold.
 */
public class Bands {

    public static int total(int[] ks) {
        int total = 0;
        int count = 0;
        for (int k : ks) {
            int w = weight(k);
            if (w > 0) total += w;
            count++;
        }
        return total * 100 + count;
    }

    static int weight(int k) {
        return k % 5 - 1;
    }
}
