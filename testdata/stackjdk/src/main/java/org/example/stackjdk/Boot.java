package org.example.stackjdk;

/** Counts its initialisations; a patch to its static block may read the stack there. */
public class Boot {
    public static int loads;
    /** The method a stack read in the static initialiser named, if one did. */
    public static String initIn;

    static {
        loads++;
    }
}
