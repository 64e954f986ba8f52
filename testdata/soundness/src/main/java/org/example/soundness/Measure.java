package org.example.soundness;

/**
 * A dereference after the location whose helpful NullPointerException message names a local: with
 * javac's default debug information (no local variable table), as plain compiles, the message
 * names its slot, `<local3>`; compiled with `-g` it would name `t`.
 */
public class Measure {

    public static int measure(String s, int k) {
        int extra = k * 2;
        String t = s;
        return t.length() + extra;
    }
}
