package org.example.purity;

/** Describes a count; the label is not part of the description. */
public final class Describer {

    private Describer() {
    }

    public static String describe(Label label, int n) {
        String s = "";
        s = "n=" + n;
        return s;
    }
}
