package org.example.mm.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.example.mm.core.Range;
import org.example.mm.core.Stats;
import org.junit.Test;

public class HistogramTest {
    @Test
    public void bucketCountRoundsUp() {
        assertEquals(3, new Histogram(new Range(0, 25), 10).bucketCount());
        assertEquals(10, new Histogram(new Range(0, 99), 10).bucketCount());
    }

    @Test
    public void bucketOfInsideAndOutside() {
        Histogram h = new Histogram(new Range(10, 39), 10);
        assertEquals(0, h.bucketOf(10));
        assertEquals(1, h.bucketOf(25));
        assertEquals(2, h.bucketOf(39));
        assertEquals(-1, h.bucketOf(40));
        assertEquals(-1, h.bucketOf(9));
    }

    @Test
    public void addCountsInBuckets() {
        Histogram h = new Histogram(new Range(0, 29), 10);
        h.addAll(new int[] {1, 2, 15, 29, 30});
        assertEquals(2, h.count(0));
        assertEquals(1, h.count(1));
        assertEquals(1, h.count(2));
        assertEquals(4, h.total());
    }

    @Test
    public void ofUsesSpanOfValues() {
        int[] values = {3, 7, 12, 3};
        Histogram h = Histogram.of(values, 5);
        assertEquals(2, h.bucketCount());
        assertEquals(3, h.count(0));
        assertEquals(1, h.count(1));
        assertEquals(Stats.span(values).lo(), h.bucketRange(0).lo());
    }

    @Test
    public void totalMatchesCoreSum() {
        int[] values = {5, 6, 7, 50, 51, 99};
        Histogram h = Histogram.of(values, 10);
        assertEquals(values.length, h.total());
    }

    @Test
    public void modeBucket() {
        Histogram h = new Histogram(new Range(0, 29), 10);
        h.addAll(new int[] {1, 21, 22, 23, 11, 12});
        assertEquals(2, h.modeBucket());
    }

    @Test(expected = IllegalArgumentException.class)
    public void rejectsNonPositiveWidth() {
        new Histogram(new Range(0, 9), 0);
    }

    @Test
    public void bucketRangeFirst() {
        assertEquals(new Range(0, 9), new Histogram(new Range(0, 99), 10).bucketRange(0));
    }

    @Test
    public void bucketRangesPartition() {
        Histogram h = new Histogram(new Range(5, 54), 10);
        int covered = 0;
        for (int b = 0; b < h.bucketCount(); b++) {
            covered += h.bucketRange(b).length();
        }
        assertEquals(50, covered);
        assertEquals(new Range(25, 34), h.bucketRange(2));
    }

    @Test
    public void bucketRangeLastIsClamped() {
        assertEquals(new Range(20, 25), new Histogram(new Range(0, 25), 10).bucketRange(2));
    }

    @Test
    public void bucketRangeContainsItsValues() {
        Histogram h = new Histogram(new Range(0, 99), 10);
        for (int v : new int[] {0, 7, 10, 55, 99}) {
            assertTrue(v + " in its bucket", h.bucketRange(h.bucketOf(v)).contains(v));
        }
    }
}
