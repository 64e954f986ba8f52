package org.example.stats;

/** Means of sample values. */
public final class Mean {

    private Mean() {
    }

    /** The arithmetic mean of {@code values}; 0 for no values. */
    public static double arithmetic(double[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        double sum = 0.0;
        for (int i = 1; i < values.length; i++) {
            sum += values[i];
        }
        return sum / values.length;
    }

    /** The mean of {@code values} without their smallest and largest one. */
    public static double trimmed(double[] values) {
        if (values.length < 3) {
            return arithmetic(values);
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        double[] inner = java.util.Arrays.copyOfRange(sorted, 1, sorted.length - 1);
        return arithmetic(inner);
    }
}
