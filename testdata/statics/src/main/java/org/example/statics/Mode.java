package org.example.statics;

/** An enum with mutable state: each constant counts its uses (no reset can put it back). */
public enum Mode {
    FAST,
    SAFE;

    private int uses;

    public int use() {
        return ++uses;
    }
}
