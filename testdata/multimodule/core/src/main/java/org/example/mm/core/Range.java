package org.example.mm.core;

/** An immutable, non-empty range of ints, both bounds inclusive. */
public final class Range {
    private final int lo;
    private final int hi;

    public Range(int lo, int hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("empty range: " + lo + ".." + hi);
        }
        this.lo = lo;
        this.hi = hi;
    }

    public int lo() {
        return lo;
    }

    public int hi() {
        return hi;
    }

    public int length() {
        return hi - lo + 1;
    }

    public boolean contains(int x) {
        return x >= lo && x <= hi;
    }

    /** The common part of two ranges, or null when they do not overlap. */
    public Range intersect(Range other) {
        int l = Math.max(lo, other.lo);
        int h = Math.min(hi, other.hi);
        return l <= h ? new Range(l, h) : null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Range)) {
            return false;
        }
        Range r = (Range) o;
        return r.lo == lo && r.hi == hi;
    }

    @Override
    public int hashCode() {
        return 31 * lo + hi;
    }

    @Override
    public String toString() {
        return "[" + lo + ".." + hi + "]";
    }
}
