package org.example.statics;

/** Counts how often its initialiser ran; {@link Leaf} has no static state of its own. */
public class Base {
    public static int inits;

    static {
        inits++;
    }
}
