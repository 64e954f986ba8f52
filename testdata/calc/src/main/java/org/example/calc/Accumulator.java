package org.example.calc;

/** Collects integers and keeps running statistics. */
public class Accumulator {

    private int total;
    private int count;
    private int max = Integer.MIN_VALUE;

    public void add(int value) {
        total += value;
        count++;
        if (value > max) {
            max = value;
        }
    }

    /** Adds every non-negative element of values; negative elements are ignored. */
    public void addAll(int[] values) {
        for (int v : values) {
            if (v < 0) {
                continue;
            }
            add(v);
        }
    }

    public int getTotal() {
        return total;
    }

    public int getCount() {
        return count;
    }

    public int getMax() {
        if (count == 0) {
            throw new IllegalStateException("no values");
        }
        return max;
    }

    public double average() {
        return count == 0 ? 0.0 : (double) total / count;
    }

    public void reset() {
        total = 0;
        count = 0;
        max = Integer.MIN_VALUE;
    }
}
