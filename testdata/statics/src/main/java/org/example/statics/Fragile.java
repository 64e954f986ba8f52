package org.example.statics;

/** A class whose static initialiser fails when {@link Switch#broken} is set. */
public class Fragile {
    public static final String VALUE;

    static {
        if (Switch.broken) {
            throw new IllegalStateException("broken");
        }
        VALUE = "ok";
    }
}
