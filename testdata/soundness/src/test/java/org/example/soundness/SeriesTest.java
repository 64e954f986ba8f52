package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SeriesTest {

    @Test
    public void sumBelowZero() {
        assertEquals(0L, Series.sumBelow(0));
    }

    @Test
    public void sumBelowFive() {
        assertEquals(10L, Series.sumBelow(5));
    }

    /** The loop body runs 100,000 times in this one test. */
    @Test
    public void sumBelowHundredThousand() {
        assertEquals(4999950000L, Series.sumBelow(100000));
    }
}
