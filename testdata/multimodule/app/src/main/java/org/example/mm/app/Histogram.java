package org.example.mm.app;

import org.example.mm.core.Range;
import org.example.mm.core.Stats;

/** Counts values of a range in buckets of equal width (the last one may be narrower). */
public final class Histogram {
    private final Range range;
    private final int width;
    private final int[] counts;

    public Histogram(Range range, int width) {
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        this.range = range;
        this.width = width;
        this.counts = new int[(range.length() + width - 1) / width];
    }

    public static Histogram of(int[] values, int width) {
        Histogram h = new Histogram(Stats.span(values), width);
        h.addAll(values);
        return h;
    }

    public int bucketCount() {
        return counts.length;
    }

    /** The bucket of a value, or -1 when the value is outside the range. */
    public int bucketOf(int value) {
        if (!range.contains(value)) {
            return -1;
        }
        return (value - range.lo()) / width;
    }

    public void add(int value) {
        int b = bucketOf(value);
        if (b >= 0) {
            counts[b]++;
        }
    }

    public void addAll(int[] values) {
        for (int v : values) {
            add(v);
        }
    }

    public int count(int bucket) {
        return counts[bucket];
    }

    public int total() {
        return Stats.sum(counts);
    }

    /** The values a bucket holds. */
    public Range bucketRange(int bucket) {
        int lo = range.lo() + bucket * width;
        int hi = Math.min(lo + width, range.hi());
        return new Range(lo, hi);
    }

    /** The fullest bucket (the first of equals). */
    public int modeBucket() {
        int best = 0;
        for (int b = 1; b < counts.length; b++) {
            if (counts[b] > counts[best]) {
                best = b;
            }
        }
        return best;
    }
}
