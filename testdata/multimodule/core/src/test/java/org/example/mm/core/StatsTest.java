package org.example.mm.core;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StatsTest {
    @Test
    public void sum() {
        assertEquals(10, Stats.sum(new int[] {1, 2, 3, 4}));
    }

    @Test
    public void sumEmptyIsZero() {
        assertEquals(0, Stats.sum(new int[0]));
    }

    @Test
    public void minMax() {
        int[] xs = {4, -1, 9, 0};
        assertEquals(-1, Stats.min(xs));
        assertEquals(9, Stats.max(xs));
    }

    @Test
    public void mean() {
        assertEquals(2.5, Stats.mean(new int[] {1, 2, 3, 4}), 1e-9);
    }

    @Test(expected = IllegalArgumentException.class)
    public void meanOfEmptyThrows() {
        Stats.mean(new int[0]);
    }

    @Test
    public void clamp() {
        assertEquals(0, Stats.clamp(-5, 0, 10));
        assertEquals(10, Stats.clamp(15, 0, 10));
        assertEquals(7, Stats.clamp(7, 0, 10));
    }

    @Test
    public void span() {
        assertEquals(new Range(-3, 8), Stats.span(new int[] {2, 8, -3}));
    }
}
