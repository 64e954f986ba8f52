package org.example.envdep;

/** Ratios as whole percentages. */
public final class Ratio {
    private Ratio() {}

    /** The percentage part is of whole, rounded down; 0 for an empty whole. */
    public static int percent(int part, int whole) {
        if (whole == 0) {
            return 0;
        }
        return part * 10 / whole;
    }
}
