package org.example.warmgap;

/** A mutable count. */
public class Tally {
    private int n;

    public int bump() {
        return ++n;
    }

    public int get() {
        return n;
    }
}
