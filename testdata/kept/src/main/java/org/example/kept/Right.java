package org.example.kept;

/** Initialising this enum writes Left's state, which Left's own initialiser left null. */
public enum Right {
    R;

    static {
        Left.L.partner = R;
    }
}
