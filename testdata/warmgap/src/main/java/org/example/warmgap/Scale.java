package org.example.warmgap;

/** Plain arithmetic, without static state. */
public class Scale {
    public static int twice(int x) {
        return x * 2;
    }
}
