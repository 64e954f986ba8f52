package org.example.stackjdk;

/** Counts its initialisations; a patch to its static block may read the stack there. */
public class Boot {
    public static int loads;
    /** The method a stack read in the static initialiser named, if one did. */
    public static String initIn;
    /** A throwable the static initialiser made and kept, if it did. */
    public static Throwable origin;

    static {
        loads++;
    }
}
