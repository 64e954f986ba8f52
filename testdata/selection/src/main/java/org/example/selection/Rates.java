package org.example.selection;

/** Tax brackets whose rates a static initializer block computes once per class loader. */
public final class Rates {
    /** Percent per bracket of 10,000: [0, 10000) pays PERCENT[0], and so on; the last is open. */
    static final int[] PERCENT = new int[5];
    public static final int TOP;

    static {
        for (int i = 0; i < PERCENT.length; i++) {
            PERCENT[i] = 10 + 5 * i;
        }
        TOP = PERCENT[PERCENT.length - 1];
    }

    private Rates() {
    }

    public static int percent(int bracket) {
        return PERCENT[bracket];
    }

    /** Tax on an income, bracket by bracket, each rounded down. */
    public static int tax(int income) {
        int total = 0;
        for (int b = 0; b < PERCENT.length && income > b * 10000; b++) {
            int top = b == PERCENT.length - 1 ? income : Math.min(income, (b + 1) * 10000);
            total += (top - b * 10000) * PERCENT[b] / 100;
        }
        return total;
    }
}
